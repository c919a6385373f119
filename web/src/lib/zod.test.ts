import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { loginSchema } from '@/features/auth/schemas'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sources(file)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : []
  })
}

describe('zod under our CSP', () => {
  it('parses jitless once a schema module is loaded (no eval probe the CSP would report)', () => {
    expect(loginSchema).toBeDefined()
    expect(z.config().jitless).toBe(true)
  })

  it('every schema takes z from @/lib/zod, never from zod directly', () => {
    const root = path.resolve(__dirname, '..')
    const direct = sources(root).filter(
      (f) => !f.endsWith(path.join('lib', 'zod.ts')) && /^import \{[^}]*\bz\b[^}]*\} from 'zod'/m.test(readFileSync(f, 'utf8')),
    )
    expect(direct).toEqual([])
  })
})
