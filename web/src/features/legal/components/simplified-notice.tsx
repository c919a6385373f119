import { useId } from 'react'
import { LegalPageLink, PRIVACY_PATH } from '@/components/legal/legal-links'
import { useLegalInfo } from '../api/get-legal-info'

/**
 * The aviso de privacidad simplificado (LFPDPPP 2025) where a screen collects personal data:
 * who is responsible, the necessary and the voluntary purposes, and where the full notice is.
 * Everything but the wording around it comes from GET /api/legal, the source of the full notice.
 * The purposes fold away on a phone; the heading and the link to the full notice always show.
 */
export function SimplifiedNotice({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const legal = useLegalInfo()
  const headingId = useId()
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const Sub = headingLevel === 2 ? 'h3' : 'h4'
  const info = legal.data
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-box border border-base-300 bg-base-200/50 p-3 text-left text-xs leading-relaxed text-base-content/80"
      data-testid="simplified-notice"
    >
      <Heading id={headingId} className="text-sm font-semibold text-base-content">
        Aviso de privacidad simplificado
      </Heading>
      <p className="mt-1">
        {info ? info.legalName : 'Perfil Seguro'} («Perfil Seguro») es responsable de tus datos personales. Los usamos para
        darte el servicio y, si no te opones, para finalidades voluntarias.
      </p>
      <p className="mt-1" data-testid="simplified-document-data">
        Para el nivel 3 guardamos los datos que el proveedor de verificación lee de tu identificación oficial (nombre, fecha de
        nacimiento, sexo, nacionalidad, tipo, número, CURP, vigencia y domicilio; el número, la CURP y el domicilio cifrados) y
        una huella cifrada de tu CURP para que una identificación valide un solo perfil. Los borramos al eliminar tu cuenta.
      </p>
      <p className="mt-1" data-testid="simplified-aml-files">
        Si una plataforma inmobiliaria te registra en una operación, la ley (LFPIORPI, art. 18, reformado el 16/07/2025) la obliga
        a conservar tu expediente de identificación 10 años desde la operación, aun si eliminas tu cuenta; queda bloqueado.
      </p>
      {info && (
        <details className="mt-1">
          <summary className="cursor-pointer font-medium text-primary">Para qué usamos tus datos</summary>
          <Sub className="mt-2 font-semibold text-base-content">Finalidades necesarias</Sub>
          <ul className="mt-1 list-disc pl-5" data-testid="simplified-primary-purposes">
            {info.primaryPurposes.map((p) => (
              <li key={p.label}>{p.label}</li>
            ))}
          </ul>
          <Sub className="mt-2 font-semibold text-base-content">Finalidades voluntarias (puedes negarte)</Sub>
          <ul className="mt-1 list-disc pl-5" data-testid="simplified-secondary-purposes">
            {info.secondaryPurposes.map((p) => (
              <li key={p.purpose}>{p.label}</li>
            ))}
          </ul>
          <p className="mt-1">
            Para negarte, desactívalas en Mi Perfil › Mis datos o escribe a {info.privacyEmail}. Negarte no afecta tu
            validación.
          </p>
        </details>
      )}
      <p className="mt-1">
        Lee el <LegalPageLink to={PRIVACY_PATH}>aviso de privacidad integral</LegalPageLink>.
      </p>
    </section>
  )
}
