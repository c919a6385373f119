import { Eye } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { formatDateTimeMx } from '@/lib/format'
import { useConsultations, type Consultation } from '../api/get-consultations'
import { MyDataSection } from './my-data-section'

/** Where a lookup came from, in Spanish. */
export function consultationChannel(c: Consultation): string {
  if (c.channel === 'public_page') return 'Página pública / QR'
  return c.partnerName ? `API de ${c.partnerName}` : 'Plataforma aliada'
}

/** "Consultas a tu perfil": when and through which channel the profile was looked up; never who. */
export function ConsultationsSection({ userId }: { userId: string }) {
  const consultations = useConsultations(userId)
  const items = consultations.data?.pages.flatMap((p) => p.items) ?? []
  return (
    <MyDataSection title="Consultas a tu perfil" icon={Eye} testId="consultations">
      <p className="text-base-content/80">Cuándo y por dónde consultaron tu Perfil Seguro. Guardamos este registro 12 meses.</p>
      {consultations.isPending ? (
        <span className="loading loading-spinner loading-sm" aria-label="Cargando" />
      ) : consultations.isError ? (
        <p className="text-error">No pudimos cargar las consultas.</p>
      ) : items.length === 0 ? (
        <p className="text-base-content/70">Nadie ha consultado tu perfil todavía.</p>
      ) : (
        <>
          <ul className="divide-y divide-base-300 rounded-box border border-base-300">
            {items.map((c, i) => (
              <li key={`${c.at}-${i}`} className="flex flex-wrap justify-between gap-2 px-4 py-2" data-testid="consultation">
                <span className="font-mono tabular-nums">{formatDateTimeMx(c.at)}</span>
                <span className="text-base-content/80">{consultationChannel(c)}</span>
              </li>
            ))}
          </ul>
          {consultations.hasNextPage && (
            <Button variant="ghost" size="sm" onClick={() => void consultations.fetchNextPage()} disabled={consultations.isFetchingNextPage}>
              {consultations.isFetchingNextPage && <span className="loading loading-spinner loading-xs" />}
              Cargar más
            </Button>
          )}
        </>
      )}
    </MyDataSection>
  )
}
