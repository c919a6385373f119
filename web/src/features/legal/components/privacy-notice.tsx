import { Link } from 'react-router-dom'
import type { LegalInfo, RetentionRow } from '../api/get-legal-info'
import { LegalContents, MailLink, sectionComponent } from './legal-document'

/** The notice's sections by the id of their h2, so each can be linked (/privacidad#derechos-arco). */
const sections = {
  responsable: 'Responsable de tus datos',
  datos: 'Datos personales que tratamos',
  finalidades: 'Para qué usamos tus datos',
  'datos-sensibles': 'Consentimiento expreso para datos sensibles',
  transferencias: 'Transferencias y remisiones',
  'derechos-arco': 'Derechos ARCO',
  revocacion: 'Revocación del consentimiento y limitación del uso',
  autoridad: 'Autoridad de protección de datos',
  conservacion: 'Conservación de tus datos',
  cookies: 'Cookies y almacenamiento local',
  cambios: 'Cambios al aviso',
} as const

const Section = sectionComponent(sections)

/** Where the person handles their own data: Mi Perfil › Mis datos. */
function MyData() {
  return (
    <Link to="/profile" className="link link-primary">
      Mi Perfil › Mis datos
    </Link>
  )
}

/**
 * The integral privacy notice (aviso de privacidad integral) of Perfil Seguro, under the Ley
 * Federal de Protección de Datos Personales en Posesión de los Particulares (2025). The responsible
 * party, the e-mails, the retention table and the secondary purposes come from GET /api/legal.
 */
export function PrivacyNotice({ info }: { info: LegalInfo }) {
  const { legalName, legalAddress, privacyEmail, retention, primaryPurposes, secondaryPurposes, authority } = info
  return (
    <>
      <p>
        Este aviso explica qué datos personales tratamos, para qué los usamos, con quién los compartimos y cómo puedes ejercer
        tus derechos. Lo emitimos conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares
        publicada en el Diario Oficial de la Federación el 20 de marzo de 2025 (la «Ley»).
      </p>
      <LegalContents sections={sections} />

      <Section id="responsable">
        <p>
          {legalName} («Perfil Seguro»), con domicilio en {legalAddress}, es responsable del tratamiento de tus datos
          personales.
        </p>
        <p>
          Para cualquier asunto sobre tus datos personales, incluido el ejercicio de tus derechos, escríbenos a{' '}
          <MailLink address={privacyEmail} />.
        </p>
      </Section>

      <Section id="datos">
        <p>Para prestarte el servicio tratamos los siguientes datos personales.</p>
        <h3>Identificación y contacto</h3>
        <ul>
          <li>Tu nombre completo.</li>
          <li>Tu ID de perfil (con el formato PS-0000-0000-00), que te asignamos al crear tu cuenta.</li>
          <li>Tu correo electrónico y tu número de teléfono celular (el que usas en WhatsApp).</li>
          <li>Cómo llegaste: la plataforma aliada de la que vienes o la persona que te invitó.</li>
        </ul>
        <h3>Resultados de la verificación biométrica (datos personales sensibles)</h3>
        <p>
          Para el nivel 3, un proveedor especializado compara tu rostro con tu identificación oficial. De ese proveedor
          recibimos y guardamos el resultado: la decisión (aprobada, rechazada o en revisión) y las puntuaciones general, de
          coincidencia facial, de documento y de prueba de vida. Estos resultados son datos personales sensibles.
        </p>
        <p>
          <strong>Nunca guardamos imágenes de tu rostro ni de tu identificación.</strong>
        </p>
        <h3>Datos de tu identificación oficial</h3>
        <p>
          El proveedor también nos envía los datos que leyó de tu identificación (INE, pasaporte u otra), y los guardamos con
          tu verificación:
        </p>
        <ul data-testid="document-data">
          <li>tus nombres y apellidos, tu fecha de nacimiento, tu sexo y tu nacionalidad;</li>
          <li>el tipo de identificación, el país y el estado que la emitieron, y sus fechas de expedición y de vigencia;</li>
          <li>el número de la identificación, tu CURP y el domicilio que aparece en ella, si lo tiene;</li>
          <li>
            las respuestas de los registros oficiales que la consultaron (por ejemplo, RENAPO sobre tu CURP), cuando el proveedor
            las consulta.
          </li>
        </ul>
        <p>
          El número, la CURP y el domicilio los guardamos cifrados. Además guardamos una <strong>huella cifrada</strong> de tu
          CURP (o, si tu identificación no tiene CURP, de su número y país): un código del que no se puede obtener el dato y
          que solo sirve para saber si esa identificación ya valida otro perfil («una identificación, un perfil»).
        </p>
        <p>
          Con estos datos comprobamos que tu identificación dice lo mismo que tu registro, que está vigente y que eres mayor de
          edad; tu perfil, tu pase y tu credencial muestran el nombre de tu identificación. Los conservamos mientras tu cuenta
          exista y los borramos, con la huella, al eliminarla: desde entonces esa identificación puede validar un perfil nuevo.
        </p>
        <h3>Tu validación y tus documentos digitales</h3>
        <ul>
          <li>El nivel que alcanzaste, tus fechas de validación y de vencimiento, tu vigencia y, en su caso, la revocación.</li>
          <li>
            Los pases de Apple Wallet y Google Wallet y la credencial verificable (SD-JWT) que emitimos con tu nombre, tu ID de
            perfil, tu nivel y tu vigencia.
          </li>
        </ul>
        <h3>Pagos</h3>
        <p>
          Folio, monto, fecha, método (tarjeta o efectivo en OXXO) y la referencia que asignan Stripe u OXXO.{' '}
          <strong>Nunca recibimos ni guardamos el número de tu tarjeta</strong>: lo captura Stripe directamente.
        </p>
        <h3>Datos técnicos</h3>
        <ul>
          <li>
            La dirección IP y el navegador (user agent) con los que inicias sesión y con los que das o retiras un consentimiento.
          </li>
          <li>
            El historial de consultas de tu perfil: la fecha, la hora y el canal de cada consulta (la página pública o el QR, o
            la plataforma aliada, por su nombre).
          </li>
          <li>
            Cuando alguien consulta un perfil, también registramos su dirección IP y su navegador, por seguridad y para prevenir
            fraudes. Nunca mostramos a nadie la dirección IP de quien consultó un perfil.
          </li>
        </ul>
      </Section>

      <Section id="finalidades">
        <h3>Finalidades necesarias (primarias)</h3>
        <p>Son necesarias para prestarte el servicio. Sin ellas no podemos dártelo.</p>
        <PurposeList testId="primary-purposes" purposes={primaryPurposes} />
        <h3>Finalidades voluntarias (secundarias)</h3>
        <p>No son necesarias para el servicio, pero nos ayudan a atenderte mejor.</p>
        <PurposeList testId="secondary-purposes" purposes={secondaryPurposes} />
        <p>
          Puedes oponerte a ellas en cualquier momento desde <MyData /> o escribiendo a <MailLink address={privacyEmail} />.
          Negarte no afecta tu validación ni el servicio.
        </p>
      </Section>

      <Section id="datos-sensibles">
        <p>
          Los resultados de la verificación biométrica son datos personales sensibles. Por eso la verificación biométrica solo
          empieza después de que nos das tu consentimiento expreso para esa finalidad, por separado de este aviso, en Mi Perfil.
          Guardamos la fecha, la hora y la versión del aviso con las que lo diste.
        </p>
        <p>
          La captura de tu rostro y de tu identificación la hace el proveedor de verificación en su propia página. Nosotros solo
          recibimos el resultado y los datos que leyó de tu identificación, nunca las imágenes.
        </p>
        <p>Si no das este consentimiento, conservas los niveles 1 y 2, pero no podrás obtener el nivel 3.</p>
      </Section>

      <Section id="transferencias">
        <p>
          Una <strong>remisión</strong> ocurre cuando un proveedor (encargado) trata datos por nuestra cuenta y solo bajo
          nuestras instrucciones. Una <strong>transferencia</strong> ocurre cuando un tercero recibe datos para usarlos con sus
          propios fines.
        </p>
        <h3>Remisiones a encargados (no requieren tu consentimiento)</h3>
        <ul>
          <li>
            Proveedor de verificación biométrica: captura tu rostro y tu identificación, los compara y nos devuelve la decisión,
            las puntuaciones y los datos que leyó de tu identificación.
          </li>
          <li>Stripe: procesa tus pagos con tarjeta y en efectivo en OXXO.</li>
          <li>
            WhatsApp (Meta Platforms): entrega tus códigos y avisos en tu teléfono. Si WhatsApp no puede entregar un mensaje, lo
            enviamos por SMS con un proveedor de mensajería.
          </li>
          <li>Proveedor de correo electrónico: entrega los enlaces de verificación y los avisos por correo.</li>
          <li>Apple y Google: solo si agregas tu pase a Apple Wallet o a Google Wallet, para emitirlo y mantenerlo al día.</li>
        </ul>
        <h3>Transferencias</h3>
        <ul>
          <li>
            Plataformas aliadas (CasaLista, VentaDirecta y ValorCasa) de las que llegaste o que tú autorices: reciben si tu
            validación es válida, tu nivel, tu nombre, tu ID de perfil y tu vigencia, para confirmar tu identidad en sus
            operaciones. Tu fecha de nacimiento, tu CURP y los demás datos de tu identificación solo los reciben si la plataforma
            los pide y tú lo aceptas en la pantalla donde compartes tus datos con ella.{' '}
            <strong>Requiere tu consentimiento</strong>, que das al validarte desde su sitio o al autorizarlas.
          </li>
          <li>
            Autoridades competentes, cuando una ley lo exija o lo ordene una autoridad judicial o administrativa.{' '}
            <strong>No requiere tu consentimiento.</strong>
          </li>
        </ul>
        <p>
          La Ley también permite transferencias sin tu consentimiento en otros casos específicos, por ejemplo cuando son
          necesarias para cumplir el contrato que tienes con nosotros o para reconocer, ejercer o defender un derecho en un
          proceso judicial. Fuera de estos casos no vendemos, rentamos ni compartimos tus datos.
        </p>
        <h3>Lo que se ve en tu página pública</h3>
        <p>
          Cualquier persona que tenga tu ID de perfil o tu QR puede ver en la página pública de verificación tu nombre, tu nivel,
          tus fechas de validación y vencimiento, las puntuaciones de tu verificación biométrica y tu teléfono y tu correo
          parcialmente ocultos. Tú decides con quién compartes tu QR.
        </p>
      </Section>

      <Section id="derechos-arco">
        <p>Tienes derecho a:</p>
        <ul>
          <li>
            <strong>Acceso</strong>: saber qué datos tuyos tenemos y cómo los usamos.
          </li>
          <li>
            <strong>Rectificación</strong>: corregirlos si son inexactos o están incompletos.
          </li>
          <li>
            <strong>Cancelación</strong>: pedir que los eliminemos.
          </li>
          <li>
            <strong>Oposición</strong>: oponerte a que los usemos para ciertas finalidades.
          </li>
        </ul>
        <h3>Desde Mi Perfil, sin trámites</h3>
        <p>
          En <MyData /> puedes:
        </p>
        <ul>
          <li>descargar tus datos (acceso);</li>
          <li>editar tu nombre y tus datos de contacto (rectificación);</li>
          <li>eliminar tu cuenta (cancelación);</li>
          <li>desactivar los usos secundarios (oposición).</li>
        </ul>
        <h3>Por correo electrónico</h3>
        <p>
          También puedes enviar tu solicitud a <MailLink address={privacyEmail} />. Debe incluir:
        </p>
        <ul>
          <li>tu nombre y un correo u otro medio para darte la respuesta;</li>
          <li>
            una copia de tu identificación oficial o, si actúas en nombre de otra persona, el documento que acredite tu
            representación;
          </li>
          <li>qué derecho quieres ejercer y sobre qué datos, descrito con claridad;</li>
          <li>tu ID de perfil o cualquier otro dato que nos ayude a encontrar tu información;</li>
          <li>si pides una rectificación, el dato correcto y, si aplica, el documento que lo respalde.</li>
        </ul>
        <p>
          Te respondemos en un plazo máximo de <strong>20 días hábiles</strong> desde que recibimos tu solicitud. Si procede, la
          hacemos efectiva dentro de los <strong>15 días hábiles</strong> siguientes a nuestra respuesta. Ejercer tus derechos es
          gratuito.
        </p>
        <p>
          Si no estás de acuerdo con nuestra respuesta o no te respondemos a tiempo, puedes acudir a la {authority.name} (ver{' '}
          <a href="#autoridad" className="link link-primary">
            {sections.autoridad}
          </a>
          ).
        </p>
      </Section>

      <Section id="revocacion">
        <p>
          Puedes revocar en cualquier momento el consentimiento que nos diste, incluido el de la verificación biométrica. La
          revocación no tiene efectos hacia atrás.
        </p>
        <p>
          Hazlo desde <MyData /> o escribiendo a <MailLink address={privacyEmail} />, con los mismos requisitos y plazos que los
          derechos ARCO. Si revocas un consentimiento necesario para el servicio, quizá ya no podamos prestártelo. Además, la ley
          puede obligarnos a conservar algunos datos por un tiempo, como los comprobantes de pago.
        </p>
        <p>
          Para limitar el uso de tus datos, desactiva los usos secundarios en <MyData />. No usamos tus datos para publicidad ni
          los compartimos con fines publicitarios.
        </p>
      </Section>

      <Section id="autoridad">
        <p>
          Desde el 21 de marzo de 2025, la autoridad que vigila la protección de datos personales en manos de particulares es la{' '}
          <strong>{authority.name}</strong>, que asumió las funciones del extinto INAI.
        </p>
        <ul>
          <li>
            Si no te respondimos una solicitud de derechos ARCO o no estás de acuerdo con la respuesta, puedes presentarle una
            solicitud de <strong>procedimiento de protección de derechos</strong> dentro de los 15 días siguientes a que te
            comuniquemos nuestra respuesta o, si no te respondimos, desde que venza nuestro plazo.
          </li>
          <li>
            Si crees que tratamos tus datos en contra de la Ley, puedes presentarle una <strong>denuncia</strong>.
          </li>
        </ul>
        <p>
          Encuentras cómo hacerlo en su sitio:{' '}
          <a href={authority.url} target="_blank" rel="noopener noreferrer" className="link link-primary">
            {authority.url.replace(/^https:\/\//, '')}
            <span className="sr-only"> (se abre en una pestaña nueva)</span>
          </a>
          .
        </p>
      </Section>

      <Section id="conservacion">
        <p>Conservamos cada dato solo el tiempo necesario para su finalidad:</p>
        <RetentionTable rows={retention} />
        <p>
          Si eliminas tu cuenta, borramos tus datos personales y tus sesiones de forma definitiva, incluidos los datos de tu
          identificación oficial y su huella cifrada. Solo conservamos tus
          comprobantes de pago (folio, monto, fecha y método) durante el plazo que exigen las leyes fiscales. No incluyen ningún
          dato biométrico.
        </p>
        <p>
          Después de eliminar una cuenta, los registros de sus consentimientos quedan bloqueados: los guardamos solo para
          atender posibles responsabilidades legales, no los usamos para nada más y, al terminar el plazo legal, los borramos.
        </p>
        <p data-testid="notice-aml-files">
          <strong>Expedientes de operaciones inmobiliarias.</strong> Si participaste en una compraventa, intermediación, desarrollo
          o arrendamiento que una plataforma inmobiliaria registró con nosotros, esa plataforma debe integrar y conservar tu
          expediente de identificación (los datos de tu identificación oficial y cómo se verificaron, tus declaraciones firmadas,
          el cotejo con listas de personas bloqueadas y la operación) durante <strong>10 años</strong> desde la operación. Es una
          obligación legal de la Ley Federal para la Prevención e Identificación de Operaciones con Recursos de Procedencia
          Ilícita (artículo 18, reformado por el decreto publicado en el Diario Oficial de la Federación el 16 de julio de 2025),
          y es la base para conservarlo aunque elimines tu cuenta; no requiere tu consentimiento. Al eliminar tu cuenta ese
          expediente queda bloqueado: nadie puede agregarle nada y solo lo consultan el área de cumplimiento de esa plataforma
          y, si una autoridad facultada por la ley lo requiere por escrito, nuestro equipo. Al cumplirse el plazo lo borramos. En Mi Perfil › Plataformas
          con acceso ves qué plataformas conservan uno y hasta cuándo.
        </p>
      </Section>

      <Section id="cookies">
        <p>Solo usamos cookies estrictamente necesarias. Son HttpOnly: el código de la página no puede leerlas.</p>
        <ul>
          <li>Sesión de usuario: mantiene tu sesión iniciada después de verificar tu código.</li>
          <li>Sesión de administrador: solo para el personal de Perfil Seguro que administra el servicio.</li>
        </ul>
        <p>
          Además, tu navegador guarda en su almacenamiento local (localStorage) datos de la interfaz: el tema claro u oscuro que
          elegiste y tu identificador, para mostrarte tu perfil.
        </p>
        <p>No usamos cookies de publicidad ni herramientas de analítica de terceros.</p>
      </Section>

      <Section id="cambios">
        <p>
          Podemos cambiar este aviso por cambios en la ley, en el servicio o en la forma en que tratamos tus datos. Cada cambio
          se publica en esta página con un número de versión y una fecha nuevos.
        </p>
        <p>La siguiente vez que inicies sesión, Mi Perfil te pedirá aceptar la nueva versión.</p>
      </Section>
    </>
  )
}

/** The retention table (GET /api/legal); it scrolls sideways inside its frame on a narrow screen. */
/** A list of purposes: each one's name in bold, then what it is for. */
function PurposeList({ testId, purposes }: { testId: string; purposes: { label: string; description: string }[] }) {
  return (
    <ul data-testid={testId}>
      {purposes.map((p) => (
        <li key={p.label}>
          <strong>{p.label}.</strong> {p.description}
        </li>
      ))}
    </ul>
  )
}

function RetentionTable({ rows }: { rows: RetentionRow[] }) {
  return (
    // Focusable, so a keyboard can scroll it when it is wider than the screen.
    <div className="mt-4 overflow-x-auto rounded-box border border-base-300" role="region" aria-label="Plazos de conservación" tabIndex={0}>
      <table className="table">
        <caption className="sr-only">Plazos de conservación de tus datos</caption>
        <thead className="text-base-content">
          <tr>
            <th scope="col">Dato</th>
            <th scope="col">Plazo</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className="align-top font-normal">
                {row.data}
              </th>
              <td className="min-w-36 align-top">{row.period}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
