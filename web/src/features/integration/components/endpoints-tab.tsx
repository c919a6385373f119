import { KeyRound } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Card, CardBody } from '@/components/ui/card'
import { nextSteps, presentationEndpoints, widgetEndpoints, type EndpointDoc } from '../content'
import { CodeBlock } from './code-block'

/** One endpoint's card: method, path, what it does, and a sample exchange. */
function EndpointCard({ endpoint }: { endpoint: EndpointDoc }) {
  return (
    <Card>
      <CardBody className="gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <Badge variant={endpoint.method === 'GET' ? 'success' : 'default'} className="font-mono">
            {endpoint.method}
          </Badge>
          <h2 className="font-mono text-base font-semibold break-all sm:text-lg">{endpoint.path}</h2>
        </div>
        <div>
          <h3 className="font-semibold">{endpoint.title}</h3>
          <p className="mt-1 text-sm text-base-content/70">{endpoint.description}</p>
        </div>
        <div className={endpoint.request ? 'grid gap-4 xl:grid-cols-2' : 'grid gap-4'}>
          {endpoint.request && <CodeBlock title="Solicitud" code={endpoint.request} language="json" />}
          <CodeBlock title="Respuesta de ejemplo" code={endpoint.response} language="json" />
        </div>
      </CardBody>
    </Card>
  )
}

/**
 * 'Endpoints': the three widget calls with sample requests and responses, then the two calls of
 * a presentation request to a person's wallet.
 */
export function EndpointsTab({ apiBase }: { apiBase: string }) {
  return (
    <div className="space-y-8">
      <p className="max-w-3xl text-base-content/70">
        URL base: <code className="rounded bg-base-200 px-1.5 py-0.5 font-mono text-sm">{apiBase}</code>. Todas las respuestas son
        JSON; los errores traen un campo <code className="font-mono text-sm">message</code> en español.
      </p>
      {widgetEndpoints.map((endpoint) => (
        <EndpointCard key={endpoint.path} endpoint={endpoint} />
      ))}
      <Card>
        <CardBody className="gap-3">
          <h2 className="text-lg font-semibold">Flujo y valores de nextStep</h2>
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
      <Alert variant="info" icon={<KeyRound className="size-5" aria-hidden />} title="Llamadas desde tu servidor">
        Las llamadas de servidor a servidor no llevan encabezado Origin: identifícalas con el encabezado{' '}
        <code className="font-mono">X-Partner-Key</code> y la llave de socio (keyId) que te asigna nuestro equipo.
      </Alert>
      <section aria-labelledby="endpoints-billetera" className="space-y-4">
        <h2 id="endpoints-billetera" className="text-xl font-bold">
          Verificar con billetera (OpenID4VP)
        </h2>
        <p className="max-w-3xl text-sm text-base-content/70">
          La persona guarda su credencial de Perfil Seguro en una billetera digital compatible y te la presenta escaneando un QR.
          Tú eliges qué datos pides y recibes solo los que la persona comparte. Ejemplos completos en la pestaña Ejemplos.
        </p>
        {presentationEndpoints.map((endpoint) => (
          <EndpointCard key={endpoint.path} endpoint={endpoint} />
        ))}
      </section>
    </div>
  )
}
