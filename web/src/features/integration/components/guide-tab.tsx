import { LifeBuoy, Mail, ScrollText } from 'lucide-react'
import { PRIVACY_PATH } from '@/components/legal/legal-links'
import { buttonClass } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { SUPPORT_EMAIL } from '@/lib/config'

const steps = [
  {
    title: 'Configuración CORS',
    text: 'Envíanos el dominio exacto de tu plataforma (por ejemplo https://www.tuplataforma.mx). Lo autorizamos y te entregamos tu llave de socio. Desde el navegador, llama a la API con credentials: "include"; desde tu servidor, agrega el encabezado X-Partner-Key.',
  },
  {
    title: 'Inicio de sesión / registro',
    text: 'Llama a POST /api/widget/login con el correo, el teléfono o ambos. Si la persona es nueva se registra; en ambos casos recibe un código de 6 dígitos. Guarda el userId de la respuesta.',
  },
  {
    title: 'Verificación SMS',
    text: 'Pide el código a la persona y envíalo a POST /api/widget/verify-code junto con el userId del paso anterior. Con el código correcto la persona alcanza el nivel 1 y nextStep indica biometric_verification.',
  },
  {
    title: 'Consulta de estado',
    text: 'Consulta GET /api/widget/verify?email= para saber si el perfil es válido, si está verificado, su ID de perfil y su vigencia antes de cerrar una operación.',
  },
]

/**
 * 'Guía': the four integration steps, the privacy notice partners must link to and the support
 * contact. apiBase is this site's origin, which serves the notice.
 */
export function GuideTab({ apiBase }: { apiBase: string }) {
  const privacyUrl = `${apiBase}${PRIVACY_PATH}`
  const mailto = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Integración del Widget de Validación Universal')}`
  return (
    <div className="space-y-8">
      <ol className="space-y-4">
        {steps.map((step, i) => (
          <li key={step.title}>
            <Card>
              <CardBody className="flex-row items-start gap-4">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary font-bold text-primary-content">
                  {i + 1}
                </span>
                <div>
                  <h2 className="text-lg font-semibold">{step.title}</h2>
                  <p className="mt-1 text-sm text-base-content/70">{step.text}</p>
                </div>
              </CardBody>
            </Card>
          </li>
        ))}
      </ol>
      {/* The widget is the partner's own form: the person gives us their data there, so the
          notice must be one click away on that form, before the first call. */}
      <Card>
        <CardBody className="flex-row items-start gap-4">
          <ScrollText className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden />
          <div>
            <h2 className="text-lg font-semibold">Aviso de privacidad</h2>
            <p className="mt-1 text-sm text-base-content/80">
              Antes de pedir el correo o el teléfono para el widget, enlaza nuestro aviso de privacidad en ese mismo formulario.
              La persona debe poder leerlo antes de darnos sus datos.
            </p>
            <p className="mt-2 text-sm">
              <a href={privacyUrl} target="_blank" rel="noopener" className="link link-primary font-medium break-all">
                {privacyUrl}
              </a>
            </p>
          </div>
        </CardBody>
      </Card>
      <Card className="border-primary/30 bg-primary/5">
        <CardBody className="gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-start gap-3">
            <LifeBuoy className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden />
            <div>
              <h2 className="text-lg font-semibold">Soporte técnico</h2>
              <p className="text-sm text-base-content/70">
                ¿Dudas con la integración? Escríbenos a{' '}
                <a href={`mailto:${SUPPORT_EMAIL}`} className="link link-primary font-medium">
                  {SUPPORT_EMAIL}
                </a>
              </p>
            </div>
          </div>
          <a href={mailto} className={buttonClass('default')}>
            <Mail className="size-4" aria-hidden />
            Contactar al equipo técnico
          </a>
        </CardBody>
      </Card>
    </div>
  )
}
