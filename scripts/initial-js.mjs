// initial-js.mjs prints the JavaScript a page needs before it can render, as the running server
// serves it: the entry script and the modulepreloads of index.html, plus, for a lazily loaded
// route, its chunk and every chunk that chunk imports statically (transitively). Chunks imported
// dynamically (import()) are left out: they load on demand, after the page has painted.
// Sizes are gzip -9 of the bytes served. Used by scripts/web-quality.sh.
//
//   node scripts/initial-js.mjs http://127.0.0.1:8080 [route-chunk-name]
//
// route-chunk-name is the file name of the route module (routes/login.tsx → "login"); Vite names
// the chunk assets/login-<hash>.js and the entry references it. Output: one line per file
// ("path bytes"), then "total <bytes>".
import { gzipSync } from 'node:zlib'

const [base, route] = process.argv.slice(2)
if (!base) {
  console.error('usage: node scripts/initial-js.mjs <base-url> [route-chunk-name]')
  process.exit(2)
}

const cache = new Map()
async function get(path) {
  if (!cache.has(path)) {
    const res = await fetch(new URL(path, base))
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`)
    cache.set(path, await res.text())
  }
  return cache.get(path)
}

// The leading import statements of an ES module, as Vite (Rolldown) emits them:
// import{a as b}from"./x.js";import"./y.js"; ... — only static imports sit there. A chunk with
// dynamic imports starts with one line before them, Vite's table of their dependencies.
function staticImports(code, from) {
  const out = []
  const re = /^\s*import\s*(?:[^"'();]*?\s*from\s*)?(["'])([^"']+)\1\s*;?/
  let rest = code.replace(/^const __vite__mapDeps=.*\n/, '')
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    if (m[2].endsWith('.js')) out.push(new URL(m[2], new URL(from, base)).pathname)
    rest = rest.slice(m[0].length)
  }
  return out
}

const html = await get('/')
const roots = [
  ...html.matchAll(/<script[^>]* src="([^"]+\.js)"/g),
  ...html.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+\.js)"/g),
].map((m) => m[1])
// Since issue 38 the entry and its modulepreloads are listed in a JSON block that index.html's
// inline scripts load them from (web/vite.config.ts, route-preload).
const firstPaint = /<script type="application\/json" id="first-paint">(.*?)<\/script>/s.exec(html)
if (firstPaint) {
  const data = JSON.parse(firstPaint[1])
  roots.unshift(data.entry, ...data.common)
}
if (roots.length === 0) throw new Error('no script in index.html')

if (route) {
  const entry = await get(roots[0])
  // Vite's hashes are 8 characters of [A-Za-z0-9_-] (a hash may itself start with "-").
  const names = new Set(
    [...entry.matchAll(new RegExp(`assets/${route}-[A-Za-z0-9_-]{8}\\.js`, 'g'))].map((m) => `/${m[0]}`),
  )
  if (names.size !== 1) throw new Error(`route chunk "${route}": found ${names.size} candidates in the entry`)
  roots.push(...names)
}

const seen = new Set()
const queue = [...roots]
while (queue.length > 0) {
  const path = queue.shift()
  if (seen.has(path)) continue
  seen.add(path)
  queue.push(...staticImports(await get(path), path))
}

let total = 0
for (const path of seen) {
  const size = gzipSync(Buffer.from(cache.get(path)), { level: 9 }).length
  total += size
  console.log(`${path} ${size}`)
}
console.log(`total ${total}`)
