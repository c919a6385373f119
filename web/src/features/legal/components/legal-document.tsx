import type { ReactNode } from 'react'
import { CircleAlert, RefreshCw } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { useLegalInfo, type LegalInfo } from '../api/get-legal-info'

const effectiveDateFormat = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

/** '24 de noviembre de 2026' from '2026-11-24'; a calendar date, so no time zone may move it a day. */
export function formatEffectiveDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!match) return date
  const [, year, month, day] = match
  return effectiveDateFormat.format(new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))))
}

/** A section of a legal document: an h2 with an id that can be linked (/privacidad#cookies). */
export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section>
      <h2 id={id} className="scroll-mt-20">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** The Section of a document whose section titles are keyed by their ids: <Section id="planes"> draws that one. */
export function sectionComponent<T extends Record<string, string>>(sections: T) {
  return function Section({ id, children }: { id: keyof T & string; children: ReactNode }) {
    return (
      <LegalSection id={id} title={sections[id]}>
        {children}
      </LegalSection>
    )
  }
}

/** The list of a document's sections, linking to each heading. */
export function LegalContents({ sections }: { sections: Record<string, string> }) {
  return (
    <nav aria-label="Contenido" className="mt-6 rounded-box border border-base-300 p-4 print:hidden">
      <p className="mt-0! font-semibold">Contenido</p>
      <ol className="mt-2! list-decimal pl-6 text-sm">
        {Object.entries(sections).map(([id, title]) => (
          <li key={id}>
            <a href={`#${id}`} className="link link-hover">
              {title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  )
}

/** An e-mail address as a mailto link; its text is the address, so print adds nothing after it. */
export function MailLink({ address }: { address: string }) {
  return (
    <a href={`mailto:${address}`} className="link link-primary break-all" data-print-href="off">
      {address}
    </a>
  )
}

/**
 * The frame of the privacy notice and the terms: the h1, the version line and the body, which is
 * drawn from GET /api/legal (the version and the responsible party live in the Go code only).
 * While the facts load it shows a skeleton; on failure an alert with a retry.
 */
export function LegalDocument({ title, children }: { title: string; children: (info: LegalInfo) => ReactNode }) {
  const legal = useLegalInfo()

  let body: ReactNode
  if (legal.data) {
    body = (
      <>
        <p className="mt-2 text-sm text-base-content/80" data-testid="legal-version">
          Versión {legal.data.version} · vigente desde {formatEffectiveDate(legal.data.date)}
        </p>
        {/* Typography for the long text, without a prose plugin: spacing, lists, headings. */}
        <div className="leading-relaxed [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_li]:mt-1.5 [&_ol]:mt-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6">
          {children(legal.data)}
        </div>
      </>
    )
  } else if (legal.isError) {
    body = (
      <div className="mt-6 space-y-4">
        <Alert
          variant="destructive"
          icon={<CircleAlert className="size-5" aria-hidden />}
          title="No pudimos cargar el documento"
          titleLevel={2}
        >
          Revisa tu conexión e intenta de nuevo.
        </Alert>
        <Button variant="outline" onClick={() => void legal.refetch()} disabled={legal.isFetching}>
          <RefreshCw className={legal.isFetching ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
          {legal.isFetching ? 'Reintentando…' : 'Reintentar'}
        </Button>
      </div>
    )
  } else {
    body = <LegalSkeleton />
  }

  return (
    <article data-legal-document className="mx-auto w-full max-w-prose px-4 py-10 break-words text-base-content sm:py-14">
      <h1 className="text-3xl font-bold sm:text-4xl">{title}</h1>
      {body}
    </article>
  )
}

/** Grey bars in the shape of the document while its facts load. */
function LegalSkeleton() {
  return (
    <div role="status" className="mt-3 space-y-3" data-testid="legal-skeleton">
      <span className="sr-only">Cargando…</span>
      <div className="skeleton h-4 w-56" />
      <div className="skeleton mt-8 h-7 w-48" />
      <div className="skeleton h-4 w-full" />
      <div className="skeleton h-4 w-full" />
      <div className="skeleton h-4 w-3/4" />
      <div className="skeleton mt-8 h-7 w-40" />
      <div className="skeleton h-4 w-full" />
      <div className="skeleton h-4 w-5/6" />
    </div>
  )
}
