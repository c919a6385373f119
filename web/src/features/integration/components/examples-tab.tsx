import { javascriptSample, phpSample, reactHookSample } from '../samples'
import { CodeBlock } from './code-block'

/** 'Ejemplos': copyable JavaScript, React and PHP samples pointed at this server. */
export function ExamplesTab({ apiBase }: { apiBase: string }) {
  return (
    <div className="space-y-8">
      <section className="space-y-3" aria-labelledby="ejemplo-js">
        <h2 id="ejemplo-js" className="text-xl font-bold">
          JavaScript (fetch)
        </h2>
        <p className="text-sm text-base-content/70">Desde el navegador, en un dominio autorizado.</p>
        <CodeBlock title="JavaScript" code={javascriptSample(apiBase)} language="javascript" />
      </section>
      <section className="space-y-3" aria-labelledby="ejemplo-react">
        <h2 id="ejemplo-react" className="text-xl font-bold">
          React (hook)
        </h2>
        <p className="text-sm text-base-content/70">
          El hook guarda el userId del inicio de sesión; llamar a verify antes de login lanza el error «No userId available».
        </p>
        <CodeBlock title="React" code={reactHookSample(apiBase)} language="jsx" />
      </section>
      <section className="space-y-3" aria-labelledby="ejemplo-php">
        <h2 id="ejemplo-php" className="text-xl font-bold">
          PHP (cURL)
        </h2>
        <p className="text-sm text-base-content/70">
          Desde tu servidor, con tu llave de socio. Cada función devuelve false ante cualquier respuesta distinta de 200.
        </p>
        <CodeBlock title="PHP" code={phpSample(apiBase)} language="php" />
      </section>
    </div>
  )
}
