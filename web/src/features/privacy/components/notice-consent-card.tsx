import { FileText } from 'lucide-react'
import { LegalPageLink, PRIVACY_PATH } from '@/components/legal/legal-links'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { consentFor, grantedNow, useConsents } from '../api/get-consents'
import { useRecordConsent } from '../api/record-consent'

/**
 * Top of Mi Perfil while the person has not accepted the notice version in force: what changed,
 * a link to read it and the button to accept it. Nothing once accepted, or when the consents
 * cannot be read (the server enforces what needs it).
 */
export function NoticeConsentCard({ userId }: { userId: string }) {
  const consents = useConsents(userId)
  const record = useRecordConsent()
  const { toast } = useToast()
  if (!consents.data || grantedNow(consentFor(consents.data, 'privacy_notice'))) return null

  const accept = () =>
    record.mutate(
      { userId, purpose: 'privacy_notice' },
      {
        onSuccess: () => toast({ title: 'Aviso aceptado', description: 'Gracias por leerlo. Ya puedes seguir con tu verificación.' }),
        onError: (err) =>
          toast({ title: 'Error', description: serverMessage(err, 'No pudimos guardar tu respuesta. Intenta de nuevo.'), variant: 'destructive' }),
      },
    )

  return (
    <Alert
      variant="warning"
      icon={<FileText className="size-5" aria-hidden />}
      title="Actualizamos nuestro aviso de privacidad"
      titleLevel={2}
      data-testid="notice-consent"
    >
      <p>
        Hay una nueva versión ({consents.data.noticeVersion}). Léela y acéptala para seguir usando tu Perfil Seguro. Mientras
        tanto no podrás iniciar tu verificación biométrica.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-4">
        <Button size="sm" onClick={accept} disabled={record.isPending}>
          {record.isPending && <span className="loading loading-spinner loading-xs" />}
          Acepto el aviso de privacidad
        </Button>
        <LegalPageLink to={PRIVACY_PATH}>Leer el aviso de privacidad</LegalPageLink>
      </div>
    </Alert>
  )
}
