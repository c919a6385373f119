import { useId } from 'react'
import { SlidersHorizontal } from 'lucide-react'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatDateMx } from '@/lib/format'
import { useConsents, type Consent, type ConsentPurpose } from '../api/get-consents'
import { useRecordConsent } from '../api/record-consent'
import { MyDataSection } from './my-data-section'

/** How Mi Perfil names and explains each secondary purpose (the notice says the same). */
export const SECONDARY_PURPOSE_TEXT: Partial<Record<ConsentPurpose, { label: string; description: string }>> = {
  partner_notifications: {
    label: 'Avisos a plataformas aliadas',
    description: 'Avisamos a la plataforma por la que llegaste cuando tu validación cambia.',
  },
  reminders: {
    label: 'Recordatorios de vigencia',
    description: 'Te avisamos 30 y 7 días antes de que venza tu validación.',
  },
}

/** "Usos secundarios" (oposición): one switch per use the person may turn off without losing the service. */
export function SecondaryUsesSection({ userId }: { userId: string }) {
  const consents = useConsents(userId)
  const secondary = consents.data?.consents.filter((c) => c.secondary && SECONDARY_PURPOSE_TEXT[c.purpose]) ?? []
  return (
    <MyDataSection title="Usos secundarios" icon={SlidersHorizontal} testId="secondary-uses">
      <p className="text-base-content/80">No son necesarios para tu validación. Puedes apagarlos cuando quieras y volver a encenderlos.</p>
      {consents.isPending ? (
        <span className="loading loading-spinner loading-sm" aria-label="Cargando" />
      ) : consents.isError ? (
        <p className="text-error">No pudimos cargar tus preferencias.</p>
      ) : (
        <ul className="divide-y divide-base-300">
          {secondary.map((c) => (
            <PurposeSwitch key={c.purpose} userId={userId} consent={c} />
          ))}
        </ul>
      )}
    </MyDataSection>
  )
}

function PurposeSwitch({ userId, consent }: { userId: string; consent: Consent }) {
  const record = useRecordConsent()
  const { toast } = useToast()
  const id = useId()
  const text = SECONDARY_PURPOSE_TEXT[consent.purpose]!

  const toggle = (granted: boolean) =>
    record.mutate(
      { userId, purpose: consent.purpose, granted },
      {
        onSuccess: () =>
          toast({ title: 'Preferencia guardada', description: `${text.label}: ${granted ? 'activado' : 'desactivado'}.` }),
        onError: (err) =>
          toast({ title: 'Error', description: serverMessage(err, 'No pudimos guardar tu preferencia. Intenta de nuevo.'), variant: 'destructive' }),
      },
    )

  return (
    <li className="flex items-start justify-between gap-4 py-3" data-testid={`purpose-${consent.purpose}`}>
      <div className="space-y-0.5">
        <p id={`${id}-label`} className="font-medium">
          {text.label}
        </p>
        <p id={`${id}-description`} className="text-base-content/70">
          {text.description}
        </p>
        <p className="text-xs text-base-content/60" data-testid="purpose-state">
          {consent.granted ? 'Activado' : 'Desactivado'}
          {consent.recordedAt ? ` · guardado el ${formatDateMx(consent.recordedAt)}` : ' · predeterminado'}
        </p>
      </div>
      <input
        type="checkbox"
        role="switch"
        className="toggle toggle-primary mt-1 shrink-0"
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-description`}
        checked={consent.granted}
        disabled={record.isPending}
        onChange={(e) => toggle(e.target.checked)}
      />
    </li>
  )
}
