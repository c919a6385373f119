import { useId, useState } from 'react'
import { Fingerprint } from 'lucide-react'
import { LegalPageLink, PRIVACY_PATH } from '@/components/legal/legal-links'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { useRecordConsent } from '../api/record-consent'

/**
 * The express consent for biometric data (datos personales sensibles), asked before the first
 * biometric check and again under a new notice version: what is processed, by whom, for how
 * long, and an unticked box the person ticks before the button records it.
 */
export function BiometricConsentCard({ userId }: { userId: string }) {
  const [agreed, setAgreed] = useState(false)
  const record = useRecordConsent()
  const { toast } = useToast()
  const id = useId()

  // The promise, not mutate's callbacks: recording the consent refetches the consents, which takes
  // this card off the page, and callbacks of an unmounted caller never run (the toast went missing
  // in one run of seven, issue 38).
  const grant = () =>
    record.mutateAsync({ userId, purpose: 'biometric' }).then(
      () => toast({ title: 'Consentimiento registrado', description: 'Ya puedes iniciar tu verificación biométrica.' }),
      (err: unknown) =>
        toast({ title: 'Error', description: serverMessage(err, 'No pudimos guardar tu consentimiento. Intenta de nuevo.'), variant: 'destructive' }),
    )

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-box border border-base-300 bg-base-100 p-4 text-sm text-base-content"
      data-testid="biometric-consent"
    >
      <h3 id={`${id}-title`} className="flex items-center gap-2 text-base font-semibold">
        <Fingerprint className="size-5 text-primary" aria-hidden />
        Consentimiento para datos biométricos
      </h3>
      <p>Para validar tu identidad necesitamos tu permiso expreso. Tus datos biométricos son datos personales sensibles.</p>
      <dl className="space-y-2">
        <div>
          <dt className="font-medium">Qué tratamos</dt>
          <dd className="text-base-content/80">
            Un video selfie y una foto de tu identificación oficial. Nuestro proveedor biométrico los revisa. Solo guardamos el
            resultado y los puntajes; nunca las imágenes.
          </dd>
        </div>
        <div>
          <dt className="font-medium">Quién los trata</dt>
          <dd className="text-base-content/80">Perfil Seguro, y nuestro proveedor biométrico como encargado: los revisa solo por cuenta nuestra.</dd>
        </div>
        <div>
          <dt className="font-medium">Por cuánto tiempo</dt>
          <dd className="text-base-content/80">
            Guardamos el resultado mientras tu cuenta exista. Los plazos de cada dato están en la{' '}
            <LegalPageLink to={`${PRIVACY_PATH}#conservacion`}>tabla de conservación</LegalPageLink>.
          </dd>
        </div>
      </dl>
      <p>
        <LegalPageLink to={`${PRIVACY_PATH}#datos`}>Lee el aviso de privacidad</LegalPageLink>
      </p>
      <label htmlFor={`${id}-agree`} className="flex cursor-pointer items-start gap-3">
        <input
          id={`${id}-agree`}
          type="checkbox"
          className="checkbox checkbox-primary checkbox-sm mt-0.5"
          checked={agreed}
          onChange={(e) => setAgreed(e.target.checked)}
          disabled={record.isPending}
        />
        <span>Doy mi consentimiento expreso para que se traten mis datos biométricos para validar mi identidad.</span>
      </label>
      <Button onClick={grant} disabled={!agreed || record.isPending} pending={record.isPending}>
        Otorgar consentimiento
      </Button>
    </section>
  )
}
