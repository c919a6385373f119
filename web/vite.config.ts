/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, URL } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
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

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    redocBundle,
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
