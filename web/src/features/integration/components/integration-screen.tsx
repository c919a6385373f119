import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Code2, ShieldCheck } from 'lucide-react'
import { useLocation } from 'react-router-dom'
import { cn } from '@/lib/cn'
import { integrationTabs, LEGACY_ANCHOR, type IntegrationTabId } from '../content'
import { EndpointsTab } from './endpoints-tab'
import { ExamplesTab } from './examples-tab'
import { GuideTab } from './guide-tab'
import { OverviewTab } from './overview-tab'

/** The tab that holds each anchor other pages link to (the deprecation headers' Link names one). */
const tabOfAnchor: Record<string, IntegrationTabId> = { [LEGACY_ANCHOR]: 'endpoints' }

/**
 * The widget documentation (SPEC §2 'Integration documentation'); samples use this site's origin.
 * /integration#llamadas-heredadas opens the tab of that section and scrolls to it.
 */
export function IntegrationScreen({ apiBase = window.location.origin }: { apiBase?: string }) {
  const location = useLocation()
  // Resumen first, as the prerendered page (vite.config.ts) has it, so that hydration matches; a
  // linked anchor switches tabs right after (the effect below).
  const [active, setActive] = useState<IntegrationTabId>('resumen')
  // A new object for every request, so that asking for the same anchor twice scrolls twice.
  const [target, setTarget] = useState<{ id: string }>()
  const tabRefs = useRef<Partial<Record<IntegrationTabId, HTMLButtonElement | null>>>({})

  const openAnchor = (id: string) => {
    setActive(tabOfAnchor[id])
    setTarget({ id })
  }
  useEffect(() => {
    const id = location.hash.slice(1)
    if (tabOfAnchor[id]) openAnchor(id)
  }, [location.hash, location.key])
  useEffect(() => {
    if (target) document.getElementById(target.id)?.scrollIntoView?.({ block: 'start' })
  }, [target])

  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    e.preventDefault()
    const i = integrationTabs.findIndex((t) => t.id === active)
    const next = integrationTabs[(i + step + integrationTabs.length) % integrationTabs.length].id
    setActive(next)
    tabRefs.current[next]?.focus()
  }

  return (
    <div>
      <section className="relative overflow-hidden bg-gradient-to-b from-primary/10 via-base-100 to-base-100">
        <div className="pointer-events-none absolute -right-24 -top-10 size-80 rounded-full bg-primary/10 blur-3xl" />
        <div className="relative mx-auto max-w-6xl px-4 py-14 text-center lg:py-20">
          <span className="badge badge-primary badge-soft gap-1.5 py-3">
            <Code2 className="size-4" aria-hidden />
            Documentación para desarrolladores
          </span>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight sm:text-5xl">Widget de Validación Universal</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-base-content/70">
            Integra la validación de identidad de Perfil Seguro en tu plataforma inmobiliaria: código por SMS, validación
            biométrica, pase digital y QR, con una sesión que abre tu servidor y nuestro widget en tu página.
          </p>
          <p className="mt-5 inline-flex items-center gap-2 text-sm text-base-content/70">
            <ShieldCheck className="size-4 text-primary" aria-hidden />
            Solo para dominios autorizados
          </p>
          <p className="mt-3 text-sm">
            <a className="link link-primary" href="/api/docs">
              Referencia completa de la API
            </a>{' '}
            ·{' '}
            <a className="link link-primary" href="/api/openapi.json">
              Documento OpenAPI 3.1
            </a>
          </p>
        </div>
      </section>

      <div className="mx-auto max-w-6xl px-4 pb-16">
        <div
          role="tablist"
          aria-label="Secciones de la documentación"
          className="tabs tabs-box mb-8 w-full flex-nowrap overflow-x-auto sm:w-fit"
          onKeyDown={onKeyDown}
        >
          {integrationTabs.map((tab) => (
            <button
              key={tab.id}
              ref={(el) => {
                tabRefs.current[tab.id] = el
              }}
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={active === tab.id}
              aria-controls={`panel-${tab.id}`}
              tabIndex={active === tab.id ? 0 : -1}
              className={cn('tab grow whitespace-nowrap sm:grow-0 sm:px-6', active === tab.id && 'tab-active')}
              onClick={() => setActive(tab.id)}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`}>
          {active === 'resumen' && <OverviewTab />}
          {active === 'endpoints' && <EndpointsTab apiBase={apiBase} />}
          {active === 'ejemplos' && <ExamplesTab apiBase={apiBase} />}
          {active === 'guia' && <GuideTab apiBase={apiBase} onLegacy={() => openAnchor(LEGACY_ANCHOR)} />}
        </div>
      </div>
    </div>
  )
}
