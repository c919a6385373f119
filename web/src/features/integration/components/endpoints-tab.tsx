import type { ReactNode } from 'react'
import { KeyRound, TriangleAlert } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Card, CardBody } from '@/components/ui/card'
import {
  LEGACY_ANCHOR,
  nextSteps,
  originOnlyDeprecation,
  presentationEndpoints,
  sessionEndpoints,
  sessionWebhookEvents,
  widgetEndpoints,
  type EndpointDoc,
} from '../content'
import { CodeBlock } from './code-block'

/** One endpoint's card: method, path, what it does, which key it takes, and a sample exchange. */
function EndpointCard({ endpoint }: { endpoint: EndpointDoc }) {
  return (
    <Card>
      <CardBody className="gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <Badge variant={endpoint.method === 'GET' ? 'success' : 'default'} className="font-mono">
            {endpoint.method}
          </Badge>
          <h3 className="font-mono text-base font-semibold break-all sm:text-lg">{endpoint.path}</h3>
        </div>
        <div>
          <h4 className="font-semibold">{endpoint.title}</h4>
          <p className="mt-1 flex items-start gap-2 text-sm">
            <KeyRound className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            <span>{endpoint.auth}</span>
          </p>
          <p className="mt-1 text-sm text-base-content/70">{endpoint.description}</p>
        </div>
        <div className={endpoint.request || endpoint.alternate ? 'grid gap-4 xl:grid-cols-2' : 'grid gap-4'}>
          {endpoint.request && <CodeBlock title="Solicitud" code={endpoint.request} language="json" />}
          <CodeBlock title="Respuesta de ejemplo" code={endpoint.response} language="json" />
          {endpoint.alternate && <CodeBlock title={endpoint.alternate.title} code={endpoint.alternate.code} language="json" />}
        </div>
      </CardBody>
    </Card>
  )
}

/** A section of the tab, named by its h2. */
function EndpointSection({ id, title, intro, children }: { id: string; title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-titulo`} className="scroll-mt-24 space-y-4">
      <h2 id={`${id}-titulo`} className="text-xl font-bold">
        {title}
      </h2>
      <div className="max-w-3xl space-y-2 text-sm text-base-content/70">{intro}</div>
      {children}
    </section>
  )
}

const code = (text: string) => <code className="font-mono">{text}</code>

/**
 * 'Endpoints': the verification sessions and their webhooks (what partners use now), the first
 * version's widget calls as the legacy path with their current rules (#llamadas-heredadas, where
 * the deprecation headers point), then the presentation request to a person's wallet.
 */
export function EndpointsTab({ apiBase }: { apiBase: string }) {
  return (
    <div className="space-y-10">
      <p className="max-w-3xl text-base-content/70">
        URL base: <code className="rounded bg-base-200 px-1.5 py-0.5 font-mono text-sm">{apiBase}</code>. Todas las respuestas son
        JSON; los errores traen un campo <code className="font-mono text-sm">message</code> en español. Tus llaves están en la
        consola de socios: la publicable ({code('pk_live_…')}, {code('pk_test_…')}) va en tus páginas; la secreta (
        {code('sk_live_…')}, {code('sk_test_…')}) solo en tu servidor.
      </p>
      <Alert variant="warning" icon={<TriangleAlert className="size-5" aria-hidden />} title="La llave secreta nunca va en un navegador">
        Una solicitud con llave secreta que llega con encabezado {code('Origin')} (es decir, desde un navegador) se rechaza con
        401, y las rutas de llave secreta no responden a CORS. Llámalas desde tu servidor.
      </Alert>

      <EndpointSection
        id="sesiones"
        title="Sesiones de verificación"
        intro={
          <p>
            Tu servidor abre una sesión con tu llave secreta; tu página entrega su clientSecret al widget; la persona se verifica y
            decide qué compartir en nuestra ventana; tu servidor lee el resultado o lo recibe en tu webhook.
          </p>
        }
      >
        {sessionEndpoints.map((endpoint) => (
          <EndpointCard key={endpoint.path} endpoint={endpoint} />
        ))}
      </EndpointSection>

      <EndpointSection
        id="webhooks"
        title="Webhooks"
        intro={
          <p>
            Configura la URL de tu webhook en la consola; su secreto se muestra una sola vez. Cada entrega llega firmada en{' '}
              {code('X-PerfilSeguro-Signature: t=<segundos Unix>,v1=<HMAC-SHA256 hexadecimal de "<t>.<cuerpo>">')}: compárala
              con tu secreto y acepta hasta 5 minutos de diferencia. Durante una rotación del secreto llegan dos v1; basta con que
              una coincida. {code('X-PerfilSeguro-Delivery')} identifica la entrega: descarta las repetidas. Cualquier respuesta
              distinta de 2xx se reintenta. Solo enviamos a direcciones públicas.
          </p>
        }
      >
        <Card>
          <CardBody className="gap-2">
            <h3 className="font-semibold">Eventos de tus sesiones</h3>
            <ul className="space-y-2 text-sm">
              {sessionWebhookEvents.map((event) => (
                <li key={event.name}>
                  <code className="font-mono font-semibold">{event.name}</code>: {event.text}
                </li>
              ))}
            </ul>
          </CardBody>
        </Card>
      </EndpointSection>

      <EndpointSection
        id={LEGACY_ANCHOR}
        title="Llamadas heredadas (widget de la primera versión)"
        intro={
          <>
            <p>
              Siguen funcionando para integraciones existentes, con estas reglas. Para una integración nueva usa las sesiones de
              verificación.
            </p>
            <ul className="list-disc space-y-1 pl-5">
              <li>
                Cada llamada lleva tu llave publicable en {code('X-Partner-Key')}: desde el navegador, solo desde tu dominio
                registrado; desde tu servidor, sin encabezado Origin.
              </li>
              <li>
                Una llamada que dependía solo del encabezado Origin se rechaza con 401, no envía ningún código ni crea nada, y
                responde con {code(`Deprecation: ${originOnlyDeprecation.deprecation}`)},{' '}
                {code(`Sunset: ${originOnlyDeprecation.sunset}`)} y {code(`Link: ${originOnlyDeprecation.link}`)}.
              </li>
              <li>
                La consulta de estado por correo es solo para tu servidor, con tu llave secreta, y solo de quien compartió su
                perfil con tu plataforma.
              </li>
            </ul>
          </>
        }
      >
        {widgetEndpoints.map((endpoint) => (
          <EndpointCard key={endpoint.path} endpoint={endpoint} />
        ))}
        <Card>
          <CardBody className="gap-3">
            <h3 className="text-lg font-semibold">Flujo y valores de nextStep</h3>
            <ol className="space-y-2 text-sm">
              {nextSteps.map((step, i) => (
                <li key={step.value} className="flex gap-3">
                  <span className="font-semibold text-primary">{i + 1}.</span>
                  <span>
                    <code className="font-mono font-semibold">{step.value}</code> — {step.text}
                  </span>
                </li>
              ))}
            </ol>
          </CardBody>
        </Card>
      </EndpointSection>

      <EndpointSection
        id="endpoints-billetera"
        title="Verificar con billetera (OpenID4VP)"
        intro={
          <p>
            La persona guarda su credencial de Perfil Seguro en una billetera digital compatible y te la presenta escaneando un QR.
            Tú eliges qué datos pides y recibes solo los que la persona comparte. Ejemplos completos en la pestaña Ejemplos.
          </p>
        }
      >
        {presentationEndpoints.map((endpoint) => (
          <EndpointCard key={endpoint.path} endpoint={endpoint} />
        ))}
      </EndpointSection>
    </div>
  )
}
