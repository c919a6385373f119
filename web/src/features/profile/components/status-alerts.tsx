import { CircleCheck, FileWarning, Info, Loader2, ShieldAlert } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { withoutClosingPeriod } from '@/lib/format'
import type { VerificationState } from './verification-state'

/** Provider decisions that mean the document must be captured again. */
const REJECTED_STATUSES = ['Declined', 'Resubmitted']

/** The status alerts of the profile, including the 'Documento Rechazado' guidance. */
export function StatusAlerts({
  state,
  biometricVerified,
  lastBiometricStatus,
  polling,
  revokedReason,
  testAccount = false,
  level = 1,
}: {
  state: VerificationState
  /** The verification level reached: what the in-progress alert says is already done. */
  level?: number
  biometricVerified: boolean
  lastBiometricStatus?: string | null
  polling: boolean
  /** Set when an administrator revoked the validation: it replaces the 'verified' alert. */
  revokedReason?: string | null
  /** A partner's test account: verified by the simulator, with no pass to add. */
  testAccount?: boolean
}) {
  const rejected = state === 'in_progress' && !biometricVerified && REJECTED_STATUSES.includes(lastBiometricStatus ?? '')
  const revoked = revokedReason != null
  return (
    <div className="space-y-3">
      {revoked && (
        <Alert variant="destructive" icon={<ShieldAlert className="size-5" aria-hidden />} title="Validación revocada">
          Perfil Seguro revocó la validación de tu identidad. Motivo: {withoutClosingPeriod(revokedReason ?? '')}. Si crees que es un error, escríbenos
          a soporte. Mientras siga revocada, no puedes iniciar una nueva verificación.
        </Alert>
      )}
      {polling && (
        <Alert variant="info" icon={<Loader2 className="size-5 animate-spin" aria-hidden />} title="Esperando el resultado de tu verificación">
          Completa el proceso en la ventana que se abrió. Esta página se actualizará en cuanto tengamos el resultado.
        </Alert>
      )}
      {state === 'complete' && !revoked && (
        <Alert variant="success" icon={<CircleCheck className="size-5" aria-hidden />} title="Identidad verificada">
          {testAccount
            ? 'Tu cuenta de prueba completó la verificación con el simulador. Puedes compartirla con la plataforma que te la pidió.'
            : 'Tu identidad está verificada. Ya puedes agregar tu pase a Apple Wallet o Google Wallet y compartir tu Perfil Seguro.'}
        </Alert>
      )}
      {state === 'in_progress' && !rejected && (
        <Alert variant="info" icon={<Info className="size-5" aria-hidden />} title="Verificación en proceso">
          {level >= 2
            ? 'Tu teléfono y tu correo ya están verificados. Completa la verificación biométrica para activar tu pase digital y las invitaciones.'
            : 'Tu teléfono ya está verificado. Verifica tu correo y completa la verificación biométrica para activar tu pase digital y las invitaciones.'}
        </Alert>
      )}
      {state === 'pending' && (
        <Alert variant="warning" icon={<ShieldAlert className="size-5" aria-hidden />} title="Pendiente de verificación">
          Verifica tu teléfono y completa la verificación biométrica para activar tu Perfil Seguro.
        </Alert>
      )}
      {rejected && (
        <Alert variant="destructive" icon={<FileWarning className="size-5" aria-hidden />} title="Documento Rechazado">
          <p>No pudimos validar tu identificación. Antes de intentarlo de nuevo:</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            <li>Usa una identificación oficial vigente (INE o pasaporte).</li>
            <li>Toma la foto con buena luz, sin reflejos y mostrando el documento completo.</li>
            <li>Asegúrate de que la selfie muestre tu rostro de frente y sin lentes ni gorra.</li>
          </ul>
          <p className="mt-1">Después presiona «Completar Verificación» para repetir el proceso.</p>
        </Alert>
      )}
    </div>
  )
}
