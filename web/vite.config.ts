/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, URL } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin, type Rollup } from 'vite'
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
// only request once it has run: one more round trip before the page can paint. This inline
// script, run before the entry, starts those downloads at once for the page being opened: the
// route's chunk, the chunks it imports statically and its CSS (issue 38). The Go server allows the
// script by its hash (api/csp.go). Paths: exact, or a prefix ending in '/'.
const preloadedRoutes: Record<string, string> = {
  '/': 'src/app/routes/landing.tsx',
  '/login': 'src/app/routes/login.tsx',
  '/register': 'src/app/routes/register.tsx',
  '/verify/': 'src/app/routes/verify-profile.tsx',
}
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
      const inHtml = new Set([entry?.fileName, ...(entry?.imports ?? [])])
      const files: Record<string, string[]> = {}
      for (const [path, source] of Object.entries(preloadedRoutes)) {
        const route = chunks.find((c) => c.facadeModuleId?.endsWith(`/${source}`))
        if (!route) throw new Error(`route-preload: no chunk for ${source}`)
        const seen = new Set<string>()
        const visit = (fileName: string) => {
          if (seen.has(fileName) || inHtml.has(fileName)) return
          seen.add(fileName)
          const chunk = bundle[fileName] as Rollup.OutputChunk
          chunk.viteMetadata?.importedCss.forEach((css) => seen.add(css))
          chunk.imports.forEach(visit)
        }
        visit(route.fileName)
        files[path] = [...seen].map((f) => `/${f}`)
      }
      const script =
        `(function (r, p) {\n` +
        `  var files = r[p] || r[p.slice(0, p.lastIndexOf('/') + 1)] || []\n` +
        `  files.forEach(function (href) {\n` +
        `    var l = document.createElement('link')\n` +
        `    if (/\\.css$/.test(href)) { l.rel = 'preload'; l.as = 'style' } else l.rel = 'modulepreload'\n` +
        `    l.crossOrigin = ''\n` +
        `    l.href = href\n` +
        `    document.head.appendChild(l)\n` +
        `  })\n` +
        `})(${JSON.stringify(files)}, location.pathname)\n`
      return [{ tag: 'script', children: script, injectTo: 'head' as const }]
    },
  },
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    redocBundle,
    routePreload,
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
