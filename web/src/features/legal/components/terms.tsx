import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { PRIVACY_PATH } from '@/components/legal/legal-links'
import { formatPrice } from '@/lib/format'
import type { LegalInfo } from '../api/get-legal-info'
import { LegalContents, MailLink, sectionComponent } from './legal-document'

/** The terms' sections by the id of their h2, so each can be linked (/terminos#planes). */
const sections = {
  servicio: 'Qué es Perfil Seguro y qué no es',
  cuentas: 'Tu cuenta y los niveles de validación',
  obligaciones: 'Tus compromisos',
  planes: 'Planes y pagos',
  vigencia: 'Vigencia, revocación y vencimiento',
  plataformas: 'Plataformas aliadas',
  suspension: 'Suspensión y eliminación de la cuenta',
  responsabilidad: 'Límites de responsabilidad',
  cambios: 'Cambios a estos términos',
  ley: 'Ley aplicable y tribunales',
  contacto: 'Contacto',
} as const

const Section = sectionComponent(sections)

/** A paid plan as the terms name it (GET /api/plans, or the app's static plans while it loads). */
export type TermsPlan = { name: string; price: number; years: number }

/** A link to the privacy notice (or one of its sections); on paper it prints its full address. */
function PrivacyLink({ hash = '', children }: { hash?: string; children: ReactNode }) {
  const to = `${PRIVACY_PATH}${hash}`
  return (
    <Link to={to} className="link link-primary" data-print-url={`${window.location.origin}${to}`}>
      {children}
    </Link>
  )
}

function years(n: number): string {
  return n === 1 ? '1 año' : `${n} años`
}

/**
 * The terms and conditions of Perfil Seguro. The company, the e-mails and the version come from
 * GET /api/legal; plans is null when payments are off (partners pay), and then no price is shown.
 */
export function Terms({ info, plans }: { info: LegalInfo; plans: TermsPlan[] | null }) {
  const { legalName, legalAddress, supportEmail, privacyEmail } = info
  return (
    <>
      <p>
        Estos términos regulan el uso de Perfil Seguro, el servicio de validación de identidad que presta {legalName}, con
        domicilio en {legalAddress}. Al crear tu cuenta o usar el servicio, los aceptas. Cómo tratamos tus datos personales se
        explica en el <PrivacyLink>Aviso de privacidad</PrivacyLink>.
      </p>
      <LegalContents sections={sections} />

      <Section id="servicio">
        <p>
          Perfil Seguro valida la identidad de las personas que participan en operaciones inmobiliarias en México. Con tu perfil
          validado obtienes un ID de perfil, un código QR que lleva a una página pública de verificación, pases de Apple Wallet
          y Google Wallet y una credencial verificable.
        </p>
        <p>Perfil Seguro no es:</p>
        <ul>
          <li>una notaría ni un fedatario público: no da fe de actos ni de documentos;</li>
          <li>
            una garantía de que una operación se concrete o salga bien, de la situación legal de un inmueble o de la solvencia
            de nadie;
          </li>
          <li>un sustituto de las revisiones que tú, tu notario o tu asesor deban hacer.</li>
        </ul>
        <p>Un perfil validado indica que la persona pasó nuestras comprobaciones en la fecha que se muestra. Nada más.</p>
      </Section>

      <Section id="cuentas">
        <p>Creas tu cuenta con tu nombre, tu correo y tu teléfono celular. La validación tiene tres niveles:</p>
        <ol>
          <li>Nivel 1: confirmas tu teléfono con un código que te enviamos por WhatsApp.</li>
          <li>Nivel 2: confirmas tu correo con un enlace.</li>
          <li>
            Nivel 3: un proveedor especializado compara tu rostro con tu identificación oficial. Empieza solo con tu
            consentimiento expreso y, salvo en los casos sin costo, después del pago.
          </li>
        </ol>
        <p>Para iniciar sesión te enviamos un código a tu teléfono.</p>
      </Section>

      <Section id="obligaciones">
        <p>Al usar Perfil Seguro te comprometes a:</p>
        <ul>
          <li>dar datos verdaderos, completos y tuyos; nunca validarte con la identidad de otra persona;</li>
          <li>tener una sola cuenta;</li>
          <li>
            conservar el teléfono con el que te registraste y mantener al día tus datos de contacto en Mi Perfil, porque ahí
            llegan tus códigos;
          </li>
          <li>no compartir tus códigos con nadie (Perfil Seguro nunca te los pedirá);</li>
          <li>avisarnos de inmediato si pierdes tu teléfono o crees que alguien más entró a tu cuenta;</li>
          <li>no alterar, copiar ni imitar tu QR, tus pases o tu credencial, ni los de otra persona;</li>
          <li>usar el servicio conforme a la ley.</li>
        </ul>
      </Section>

      <Section id="planes">
        {plans ? (
          <>
            <p>Puedes obtener tu validación así:</p>
            <ul data-testid="terms-plans">
              <li>Sin costo, con vigencia de 1 año: si llegaste a través de CasaLista o aceptaste una invitación.</li>
              {plans.map((plan) => (
                <li key={plan.name}>
                  {plan.name}: {formatPrice(plan.price)}, con vigencia de {years(plan.years)}.
                </li>
              ))}
            </ul>
            <p>
              Pagas antes de la verificación biométrica, con tarjeta o en efectivo en OXXO, a través de Stripe. Nunca vemos ni
              guardamos los datos de tu tarjeta. Tus pagos aparecen en Mi Perfil.
            </p>
            <h3>Reembolsos</h3>
            <p>
              Si pagaste y aún no inicias tu verificación biométrica, puedes pedir el reembolso escribiendo a{' '}
              <MailLink address={supportEmail} />. Una vez hecha la verificación, el pago no se reembolsa, porque el servicio ya
              se prestó. Si no podemos prestarte el servicio por una causa nuestra, te devolvemos tu pago.
            </p>
            <p>
              Los pagos con tarjeta se reembolsan a la misma tarjeta. Los pagos en efectivo en OXXO no pueden devolverse por ese
              medio; te contactamos para acordar cómo hacerlo.
            </p>
          </>
        ) : (
          <p>La validación no tiene costo para ti: la cubren las plataformas aliadas con las que usas Perfil Seguro.</p>
        )}
      </Section>

      <Section id="vigencia">
        <ul>
          <li>Tu validación dura el plazo de tu plan, contado desde la fecha en que se aprueba tu verificación biométrica.</li>
          <li>
            Te recordamos por correo y WhatsApp 30 y 7 días antes de que venza, salvo que hayas desactivado los recordatorios en
            Mi Perfil.
          </li>
          <li>
            Al vencer, tu perfil aparece como Expirado en la página pública, en tus pases, en tu credencial y ante las
            plataformas aliadas, hasta que lo renueves con una nueva verificación biométrica.
          </li>
          <li>
            Podemos revocar una validación si detectamos datos falsos, suplantación o uso indebido. Tu perfil aparecerá como
            Revocado y tu cuenta se conserva. Si crees que es un error, escríbenos.
          </li>
        </ul>
      </Section>

      <Section id="plataformas">
        <p>
          CasaLista, VentaDirecta y ValorCasa integran Perfil Seguro en sus sitios. Cuando llegas desde ellas o las autorizas,
          pueden consultar si tu validación es válida, tu nivel, tu nombre, tu ID de perfil y tu vigencia.
        </p>
        <p>
          Cada plataforma responde por sus propios servicios y tiene sus propios términos. Perfil Seguro no participa en las
          operaciones que hagas en ellas.
        </p>
      </Section>

      <Section id="suspension">
        <ul>
          <li>
            Puedes eliminar tu cuenta cuando quieras desde Mi Perfil › Mis datos. Al hacerlo, tu ID de perfil, tu QR, tus pases
            y tu credencial dejan de ser válidos de inmediato.
          </li>
          <li>
            Podemos suspender o eliminar una cuenta que incumpla estos términos, que use datos falsos o de otra persona, o
            cuando lo ordene una autoridad. Si es posible, te avisamos antes y te decimos por qué.
          </li>
          <li>
            Qué datos conservamos después se explica en el{' '}
            <PrivacyLink hash="#conservacion">Aviso de privacidad, en «Conservación de tus datos»</PrivacyLink>.
          </li>
        </ul>
      </Section>

      <Section id="responsabilidad">
        <ul>
          <li>
            Validamos con cuidado, pero ninguna comprobación elimina por completo el riesgo de fraude. Usa tu criterio en cada
            operación.
          </li>
          <li>
            No respondemos por las operaciones inmobiliarias entre personas ni por los daños que deriven de ellas, ni por lo que
            hagan las plataformas aliadas en sus propios sitios.
          </li>
          <li>
            No respondemos por fallas de servicios de terceros que no controlamos (WhatsApp, correo electrónico, Stripe, Apple o
            Google) ni por interrupciones por mantenimiento o por causas de fuerza mayor.
          </li>
          <li>Nada de esto limita los derechos que te da la Ley Federal de Protección al Consumidor.</li>
        </ul>
      </Section>

      <Section id="cambios">
        <p>
          Podemos actualizar estos términos. Publicaremos cada nueva versión en esta página con su número y su fecha, y la
          siguiente vez que inicies sesión Mi Perfil te pedirá aceptarla. Si no estás de acuerdo, puedes eliminar tu cuenta.
        </p>
      </Section>

      <Section id="ley">
        <p>
          Estos términos se rigen por las leyes federales de los Estados Unidos Mexicanos. Para cualquier controversia, tú y
          Perfil Seguro se someten a los tribunales competentes de la Ciudad de México, sin perjuicio de tu derecho a acudir a la
          Procuraduría Federal del Consumidor (Profeco).
        </p>
      </Section>

      <Section id="contacto">
        <p>
          ¿Dudas sobre estos términos o sobre el servicio? Escríbenos a <MailLink address={supportEmail} />. Para temas de datos
          personales, escribe a <MailLink address={privacyEmail} />.
        </p>
      </Section>
    </>
  )
}
