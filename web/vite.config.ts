/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, URL } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { createServer, defineConfig, type Plugin, type Rollup } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

// The Go server (perfilseguro dev) answers /api on :8080; the dev server
// proxies there so cookies stay first-party.
const apiTarget = process.env.VITE_API_PROXY ?? 'http://localhost:8080'

// The partners' API reference at /api/docs is Redoc, served from our own origin: its standalone
// bundle goes into dist/docs/ at build time (no CDN, same Content Security Policy).
const require = createRequire(import.meta.url)
const redoclyBadge = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#e4595a"/></svg>\n'
const redocBundle = {
  name: 'redoc-standalone',
  apply: 'build' as const,
  generateBundle(this: { emitFile: (f: { type: 'asset'; fileName: string; source: string }) => void }) {
    // Its one outside request, the "by Redocly" badge image, is served from here instead.
    const bundle = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8')
      .replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', '/docs/redocly-logo.svg')
    this.emitFile({ type: 'asset', fileName: 'docs/redoc.standalone.js', source: bundle })
    this.emitFile({ type: 'asset', fileName: 'docs/redocly-logo.svg', source: redoclyBadge })
  },
}

// Each screen but the not-found page is a lazy chunk (src/app/router.tsx), which the entry would
// only request once it has run: one more round trip before the page can paint. The page's scripts
// therefore start from index.html (issue 38): a JSON block (#first-paint) lists the entry, the
// chunks it imports statically (Vite's modulepreloads, taken out of the HTML) and, for the pages
// most opened first, the route's chunk, the chunks it imports statically and its CSS. An inline
// script in <head>, ahead of the stylesheet (an inline script after it waits until it has loaded),
// preloads them at once; with a prerendered screen (below) the script at the end of <body> does,
// once that screen has painted. The script at the end of <body> runs the entry. The Go server
// allows both scripts by their hashes (api/csp.go). Paths: exact, or a prefix ending in '/'.
const preloadedRoutes: Record<string, string> = {
  '/': 'src/app/routes/landing.tsx',
  '/login': 'src/app/routes/login.tsx',
  '/register': 'src/app/routes/register.tsx',
  '/verify/': 'src/app/routes/verify-profile.tsx',
  '/conectar': 'src/app/routes/hosted-flow.tsx',
  '/socios': 'src/app/routes/partner-console.tsx',
  '/integration': 'src/app/routes/integration.tsx',
}

// The start of both inline scripts: the data, this page's files, whether it shows a prerendered
// screen (a shell path, no query string (?plan= names the chosen plan), nobody signed in, as a
// person or to the partner console: the header and /socios would differ; a focused shell, whose
// frame names nobody, for anyone) and preload().
const firstPaintPrelude =
  `  var data = JSON.parse(document.getElementById('first-paint').textContent)\n` +
  `  var p = location.pathname, shell = false, served = p.indexOf('/verify/') === 0\n` +
  `  var files = [data.entry].concat(data.common, data.routes[p] || data.routes[p.slice(0, p.lastIndexOf('/') + 1)] || [])\n` +
  `  try {\n` +
  `    shell = data.shells.indexOf(p) >= 0 && (data.focused.indexOf(p) >= 0 ||\n` +
  `      (!location.search && !window.localStorage.getItem('userId') && !window.localStorage.getItem('ps_console')))\n` +
  `  } catch (e) {}\n` +
  `  function preload() {\n` +
  `    files.forEach(function (href) {\n` +
  `      var l = document.createElement('link')\n` +
  `      if (/\\.css$/.test(href)) { l.rel = 'preload'; l.as = 'style' } else l.rel = 'modulepreload'\n` +
  `      l.crossOrigin = ''\n` +
  `      l.href = href\n` +
  `      document.head.appendChild(l)\n` +
  `    })\n` +
  `  }\n`
const headScript = `(function () {\n${firstPaintPrelude}  if (!shell && !served) preload()\n})()\n`

const routePreload: Plugin = {
  name: 'route-preload',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const bundle = ctx.bundle
      if (!bundle) return html
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
      const entry = chunks.find((c) => c.isEntry)
      if (!entry) throw new Error('route-preload: no entry chunk')
      const inEntry = new Set([entry.fileName, ...entry.imports])
      const routes: Record<string, string[]> = {}
      for (const [path, source] of Object.entries(preloadedRoutes)) {
        const route = chunks.find((c) => c.facadeModuleId?.endsWith(`/${source}`))
        if (!route) throw new Error(`route-preload: no chunk for ${source}`)
        const seen = new Set<string>()
        const visit = (fileName: string) => {
          if (seen.has(fileName) || inEntry.has(fileName)) return
          seen.add(fileName)
          const chunk = bundle[fileName] as Rollup.OutputChunk
          chunk.viteMetadata?.importedCss.forEach((css) => seen.add(css))
          chunk.imports.forEach(visit)
        }
        visit(route.fileName)
        routes[path] = [...seen].map((f) => `/${f}`)
      }
      const data = { entry: `/${entry.fileName}`, common: entry.imports.map((f) => `/${f}`), routes, shells: shellPaths, focused: focusedShellPaths }
      // Vite's tags for the entry and its imports go: the scripts above load them.
      const tags = [
        `<script type="module" crossorigin src="/${entry.fileName}"></script>`,
        ...entry.imports.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
      ]
      for (const tag of tags) {
        if (!html.includes(tag)) throw new Error(`route-preload: ${tag} not in index.html`)
        html = html.replace(`    ${tag}\n`, '').replace(tag, '')
      }
      const stylesheet = html.indexOf('<link rel="stylesheet"')
      if (stylesheet < 0) throw new Error('route-preload: no stylesheet in index.html')
      const json = JSON.stringify(data).replaceAll('<', '\\u003c')
      return (
        `${html.slice(0, stylesheet)}<script type="application/json" id="first-paint">${json}</script>\n` +
        `    <script>${headScript}</script>\n    ${html.slice(stylesheet)}`
      )
    },
  },
}

// The first paint of /login and /register (issue 38): a person on a phone saw nothing until ~140 kB
// of JavaScript had arrived and run (Lighthouse mobile LCP ~2.5 s, the card's subtitle). The build
// renders these two screens with the app's own components (react-dom/server, in jsdom, as React's
// first render in the browser: signed out, no data loaded yet) into <template>s of index.html, one
// per theme (the theme toggle's icon differs). A small inline script at the end of <body> copies the
// one for the opened page and the theme into #root, so the screen paints with the stylesheet, before
// any JavaScript. main.tsx then hydrates the copy once the screen's chunk is here (React keeps the
// painted markup: no loading fallback in between, nothing moves). Until then the copy is inert and
// aria-hidden: typing into it would be lost. It is not used for a signed-in person (the header
// differs), a query string (?plan= shows the chosen plan) or any other path. The Go server allows the
// script by its hash (api/csp.go), as the others.
//
// /conectar (issue 54), a partner's hosted verification, is prerendered too: its focused frame and
// the page's heading and explanation paint from the HTML, so a phone sees the step's context before
// any JavaScript; the request's own details (the platform, the claims, the buttons) follow once the
// screen has run. Its frame names nobody, so its shell is used with a query string (?pk=…) and for a
// signed-in person alike (focusedShellPaths).
const focusedShellPaths = ['/conectar']
// /socios signed out is the console's sign-in card (features/partner-console: it asks the server
// nothing while this browser holds no console session, the ps_console mark). The landing and
// /integration (static pages whose LCP was their hero paragraph, 2.5 s on a phone) paint from the
// HTML too: index.html grows from 7 to 22 kB gzip for every page, about 75 ms on slow 4G, against
// 1.3 s less to the first useful paint of the two pages people open first (issue 54).
const shellPaths = ['/', '/integration', '/login', '/register', '/socios', ...focusedShellPaths]
const shellThemes = ['light', 'dark']
const shellSource = `
import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { QueryClient } from '@tanstack/react-query'
import { AppProvider } from '/src/app/provider.tsx'
import { preloadRoute, routes } from '/src/app/router.tsx'

export async function render(path) {
  await preloadRoute(path)
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const client = new QueryClient()
  try {
    return renderToString(h(AppProvider, { client }, h(RouterProvider, { router })))
  } finally {
    // The queries the screen started hold 5-minute garbage-collection timers, which kept the
    // build's process alive for five minutes after it had finished.
    client.clear()
  }
}
`
// The script at the end of <body>: copies this page's prerendered screen, if it has one, into #root
// and runs the entry. With a screen, the page's scripts are preloaded and the entry runs once the
// screen has painted (its first-contentful-paint entry; a frame where the browser has no paint
// timing; after a second at the latest, e.g. in a background tab): the paint needs only the HTML and
// the stylesheet, which then have the connection to themselves, and ~350 kB of JavaScript evaluated
// in one task before it would hold it back on a slow phone. Without one, the entry runs at once (the
// stylesheet above has loaded by then, as a module script in <head> would also have waited for it).
// /verify/{id} of a known profile comes with its card already in #root (the server writes it,
// api/spa_public_card.go): its scripts wait for that paint in the same way (served), so they do
// not hold back the card on a slow phone; without a card (unknown ID) they start at once.
const bodyScript =
  `(function () {\n${firstPaintPrelude}` +
  `  var root = document.getElementById('root'), started = false\n` +
  `  var copy = shell && document.getElementById('shell:' + p + ':' + document.documentElement.getAttribute('data-theme'))\n` +
  `  function start() {\n` +
  `    if (started) return\n` +
  `    started = true\n` +
  `    if (shell || served) preload()\n` +
  `    var s = document.createElement('script')\n` +
  `    s.type = 'module'\n` +
  `    s.crossOrigin = ''\n` +
  `    s.src = data.entry\n` +
  `    document.head.appendChild(s)\n` +
  `  }\n` +
  `  var painted = served && root && root.firstElementChild\n` +
  `  if (!painted && (!copy || !root || root.firstChild)) return start()\n` +
  `  if (!painted) root.appendChild(copy.content.cloneNode(true))\n` +
  `  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes\n` +
  `  if (types && types.indexOf('paint') >= 0)\n` +
  `    new PerformanceObserver(function (list) {\n` +
  `      if (list.getEntriesByName('first-contentful-paint').length) setTimeout(start)\n` +
  `    }).observe({ type: 'paint', buffered: true })\n` +
  `  else requestAnimationFrame(function () { setTimeout(start) })\n` +
  `  setTimeout(start, 1000)\n` +
  `})()\n`

/** renderShells renders each shell path in each theme: `<template id="shell:/login:light">…</template>`. */
async function renderShells(root: string): Promise<string> {
  // jsdom (the vitest environment) ships no types: the little used here.
  type JSDOMWindow = Record<string, unknown> & {
    document: { documentElement: { setAttribute(name: string, value: string): void } }
    localStorage: { setItem(key: string, value: string): void }
  }
  type JSDOMClass = new (html: string, options: { url: string }) => { window: JSDOMWindow }
  const { JSDOM } = (await import('jsdom' as string)) as { JSDOM: JSDOMClass }
  const dom = new JSDOM('<!doctype html><html lang="es-MX" data-theme="light"><head></head><body></body></html>', {
    url: 'http://localhost/',
  })
  const win = dom.window
  // What the components read while rendering, as a browser has it (WebAuthn too: the passkey button).
  win.matchMedia = () => ({ matches: false, addEventListener() {}, removeEventListener() {} })
  win.PublicKeyCredential = function PublicKeyCredential() {}
  const globals: Record<string, unknown> = {
    window: win,
    document: dom.window.document,
    navigator: dom.window.navigator,
    localStorage: dom.window.localStorage,
    sessionStorage: dom.window.sessionStorage,
    location: dom.window.location,
    matchMedia: win.matchMedia,
    PublicKeyCredential: win.PublicKeyCredential,
  }
  const g = globalThis as Record<string, unknown>
  const before = Object.fromEntries(Object.keys(globals).map((k) => [k, Object.getOwnPropertyDescriptor(g, k)]))
  for (const [k, value] of Object.entries(globals)) Object.defineProperty(g, k, { value, configurable: true, writable: true })
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
    plugins: [
      {
        name: 'screen-shell-entry',
        resolveId: (id) => (id === 'virtual:screen-shell' ? '\0virtual:screen-shell.js' : undefined),
        load: (id) => (id === '\0virtual:screen-shell.js' ? shellSource : undefined),
      },
    ],
  })
  try {
    const { render } = (await server.ssrLoadModule('virtual:screen-shell')) as { render: (path: string) => Promise<string> }
    const templates: string[] = []
    for (const path of shellPaths)
      for (const theme of shellThemes) {
        // As index.html's first script leaves it: the theme chosen, on <html> and (src/lib/theme.ts) saved.
        dom.window.localStorage.setItem('theme', theme)
        dom.window.document.documentElement.setAttribute('data-theme', theme)
        const markup = await render(path)
        if (!markup.includes('<h1') || /<script/i.test(markup)) throw new Error(`screen-shell: unexpected markup for ${path}`)
        templates.push(`<template id="shell:${path}:${theme}"><div inert aria-hidden="true">${markup}</div></template>`)
      }
    return templates.join('\n    ')
  } finally {
    await server.close()
    for (const [k, d] of Object.entries(before)) {
      if (d) Object.defineProperty(g, k, d)
      else delete g[k]
    }
  }
}

const screenShell: Plugin = {
  name: 'screen-shell',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    async handler(html) {
      const rootTag = '<div id="root"></div>'
      if (!html.includes(rootTag)) throw new Error('screen-shell: no empty #root in index.html')
      const templates = await renderShells(fileURLToPath(new URL('.', import.meta.url)))
      return html.replace(rootTag, `${rootTag}\n    ${templates}\n    <script>${bodyScript}</script>`)
    },
  },
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    redocBundle,
    routePreload,
    screenShell,
    // The credential verifier (/verify) works offline after one visit: Workbox precaches the app
    // and keeps the issuer's keys and the latest status list (network first, so an online check
    // always uses a fresh list). The page registers the worker itself; no other page does.
    VitePWA({
      injectRegister: false,
      registerType: 'autoUpdate',
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        globIgnores: ['docs/**'], // the API reference is not part of the offline verifier
        // Take over the open verifier at once, so it works offline without a second visit.
        clientsClaim: true,
        skipWaiting: true,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/dev\//, /^\/\.well-known\//, /^\/credentials\//, /^\/admin\/monitoring/],
        runtimeCaching: [
          {
            urlPattern: ({ url }) =>
              url.pathname === '/.well-known/jwt-vc-issuer' || url.pathname.startsWith('/api/credentials/status/'),
            handler: 'NetworkFirst',
            options: { cacheName: 'credential-verification', networkTimeoutSeconds: 4 },
          },
        ],
      },
    }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    // Emptied on every build; the npm build script re-creates dist/.gitkeep,
    // the placeholder that lets `go build` embed dist before any npm build.
    emptyOutDir: true,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
})
