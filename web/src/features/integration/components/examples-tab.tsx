import type { ReactNode } from 'react'
import { javascriptSample, phpSample, presentationServerSample, reactHookSample, walletWidgetSample, webhookReceiverSample } from '../samples'
import { dropInSample, goSessionSample, nodeSessionSample, phpSessionSample } from '../session-samples'
import { CodeBlock } from './code-block'

/** One example of the tab: its h2, which the section is named by, then the text and code. */
function ExampleSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="space-y-3" aria-labelledby={id}>
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  )
}

/**
 * 'Ejemplos': copyable JavaScript, React and PHP samples pointed at this server, then the
 * presentation request to a person's wallet: from the partner's server, the webhook that
 * reports it, and the widget's "Verificar con billetera" in React.
 */
export function ExamplesTab({ apiBase }: { apiBase: string }) {
  return (
    <div className="space-y-8">
      <ExampleSection id="ejemplo-widget" title="Widget listo para usar (recomendado)">
        <p className="text-sm text-base-content/70">
          La persona se registra o inicia sesión, se verifica y decide qué compartir en nuestra ventana, con el nombre y el dominio
          de tu plataforma a la vista. Tu página nunca ve sus datos: tu servidor los lee con tu llave secreta o los recibe en tu
          webhook (verification_session.completed, .declined, .expired). Con llaves de prueba (pk_test_, sk_test_) todo funciona
          igual, sin mezclarse con datos reales.
        </p>
        <h3 className="font-semibold">1. En tu página</h3>
        <CodeBlock title="Widget en tu página (HTML)" code={dropInSample(apiBase)} language="html" />
        <p className="text-sm text-base-content/70">
          El atributo integrity hace que el navegador ejecute solo el script que publicamos; crossorigin="anonymous" es necesario
          para que lo compruebe.
        </p>
        <h3 className="font-semibold">2. Desde tu servidor</h3>
        <p className="text-sm text-base-content/70">
          Crea la sesión con tu llave secreta (solo en tu servidor), con el nivel que necesitas (2 o 3) como parámetro, y consulta
          su resultado. El mismo ejemplo en tres lenguajes.
        </p>
        <CodeBlock title="Sesiones en Node.js" code={nodeSessionSample(apiBase)} language="node-sesion" />
        <CodeBlock title="Sesiones en PHP" code={phpSessionSample(apiBase)} language="php-sesion" />
        <CodeBlock title="Sesiones y webhook en Go" code={goSessionSample(apiBase)} language="go" />
      </ExampleSection>
      <ExampleSection id="ejemplo-js" title="JavaScript (fetch)">
        <p className="text-sm text-base-content/70">
          Widget de la primera versión (llamadas heredadas): desde el navegador, en tu dominio registrado y con tu llave publicable.
          El estado de una persona lo consulta tu servidor con tu llave secreta (ejemplo PHP).
        </p>
        <CodeBlock title="JavaScript" code={javascriptSample(apiBase)} language="javascript" />
      </ExampleSection>
      <ExampleSection id="ejemplo-react" title="React (hook)">
        <p className="text-sm text-base-content/70">
          Widget de la primera versión, con tu llave publicable. El hook guarda el userId del inicio de sesión; llamar a verify antes
          de login lanza el error «No userId available».
        </p>
        <CodeBlock title="React" code={reactHookSample(apiBase)} language="jsx" />
      </ExampleSection>
      <ExampleSection id="ejemplo-php" title="PHP (cURL)">
        <p className="text-sm text-base-content/70">
          Desde tu servidor: el inicio de sesión y el código con tu llave publicable; el estado por correo, con tu llave secreta, y
          solo de quien compartió su perfil con tu plataforma. Cada función devuelve false ante cualquier respuesta distinta de 200.
        </p>
        <CodeBlock title="PHP" code={phpSample(apiBase)} language="php" />
      </ExampleSection>
      <ExampleSection id="ejemplo-billetera" title="Verificar con billetera (OpenID4VP)">
        <p className="text-sm text-base-content/70">
          La persona presenta la credencial de su billetera digital: creas una solicitud con los datos que necesitas, le muestras
          el QR, y consultas el resultado cada 2 segundos o lo recibes en tu webhook como evento presentation.completed. Solo
          recibes los datos que pediste y la persona aceptó compartir.
        </p>
        <h3 className="font-semibold">1. Desde tu servidor (Node.js)</h3>
        <p className="text-sm text-base-content/70">
          Crea la solicitud con tu llave de socio, guarda el QR en presentacion-qr.png y espera la respuesta.
        </p>
        <CodeBlock title="Node.js: solicitud de presentación" code={presentationServerSample(apiBase)} language="node" />
        <h3 className="font-semibold">2. El webhook presentation.completed</h3>
        <p className="text-sm text-base-content/70">
          Comprueba la firma X-PerfilSeguro-Signature con el secreto de tu webhook antes de creer el contenido, y descarta las
          entregas repetidas (X-PerfilSeguro-Delivery).
        </p>
        <CodeBlock title="Node.js: webhook" code={webhookReceiverSample()} language="node" />
        <h3 className="font-semibold">3. En tu widget (React)</h3>
        <p className="text-sm text-base-content/70">
          El botón «Verificar con billetera» desde el navegador, en un dominio autorizado: muestra el QR y el enlace, y después
          el nombre que compartió la persona.
        </p>
        <CodeBlock title="React: Verificar con billetera" code={walletWidgetSample(apiBase)} language="jsx" />
      </ExampleSection>
    </div>
  )
}
