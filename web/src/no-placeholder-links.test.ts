import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

// A guard: every link goes somewhere. The footer and the registration form once pointed their
// legal links at '#'; this keeps such placeholders from coming back anywhere under web/src.

// This file's own folder: web/src (under jsdom import.meta.url is not a file: URL).
const SRC = __dirname

/** The placeholder link forms, as written in JSX or in an object of links. */
const PLACEHOLDERS = [/href="#"/, /href=\{'#'\}/, /href=\{"#"\}/, /href:\s*'#'/, /href:\s*"#"/, /to="#"/, /to=\{'#'\}/, /to:\s*'#'/]

function isPlaceholder(text: string): boolean {
  return PLACEHOLDERS.some((pattern) => pattern.test(text))
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    const isSource = /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
    const isTest = /\.test\.tsx?$/.test(entry.name)
    return isSource && !isTest ? [path] : []
  })
}

describe('links', () => {
  it('has no placeholder href="#" or to="#" in any source file under web/src', () => {
    const files = sourceFiles(SRC)
    expect(files.length).toBeGreaterThan(50)
    const offending = files.filter((file) => isPlaceholder(readFileSync(file, 'utf8'))).map((file) => relative(SRC, file))
    expect(offending, `placeholder links in: ${offending.join(', ')}`).toEqual([])
  })

  it('recognises the placeholder forms and leaves real anchors alone', () => {
    for (const text of ['<a href="#" className="link">', "{ label: 'Aviso', href: '#' }", '<Link to="#">']) {
      expect(isPlaceholder(text), text).toBe(true)
    }
    for (const text of ['<a href="#cookies">', "href: '#precios'", '<Link to="/privacidad">']) {
      expect(isPlaceholder(text), text).toBe(false)
    }
  })
})
