import type { ReactNode } from 'react'
import { History, LifeBuoy, Mail, ScrollText } from 'lucide-react'
import { PRIVACY_PATH } from '@/components/legal/legal-links'
import { buttonClass } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { SUPPORT_EMAIL } from '@/lib/config'
import { LEGACY_ANCHOR } from '../content'
import { DROP_IN_INTEGRITY, PUBLISHABLE_KEY_PLACEHOLDER } from '../session-samples'
import { CodeBlock } from './code-block'

const code = (text: string) => <code className="font-mono">{text}</code>

/** One numbered step of the guide. */
function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li>
      <Card>
        <CardBody className="flex-row items-start gap-4">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary font-bold text-primary-content">
            {n}
          </span>
          <div className="min-w-0 flex-1 space-y-2 text-sm text-base-content/70">
            <h2 className="text-lg font-semibold text-base-content">{title}</h2>
            {children}
          </div>
        </CardBody>
      </Card>
    </li>
  )
}

/**
 * 'Guía': how a partner integrates now (keys from the console, a session from its server, the
 * drop-in with its integrity hash, the result and the webhooks, the test mode), where the first
 * version's calls went, the privacy notice partners must link to and the support contact.
 * apiBase is this site's origin, which serves the script, the console and the notice.
 */
export function GuideTab({ apiBase, onLegacy }: { apiBase: string; onLegacy: () => void }) {
  const privacyUrl = `${apiBase}${PRIVACY_PATH}`
  const mailto = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Integración del Widget de Validación Universal')}`
  const scriptTag = `<script src="${apiBase}/widget/v1.js"
        integrity="${DROP_IN_INTEGRITY}"
        crossorigin="anonymous"></script>`
  return (
    <div className="space-y-8">
      <ol className="space-y-4">
        <Step n={1} title="Tus llaves, en la consola de socios">
          <p>
            Entra a la{' '}
            <a href={`${apiBase}/socios`} className="link link-primary">
              consola de socios
            </a>{' '}
            con tu llave de acceso (passkey). Ahí están tus llaves publicables ({code('pk_live_…')}, {code('pk_test_…')}), que van
            en tus páginas, y creas tus llaves secretas ({code('sk_live_…')}, {code('sk_test_…')}), que se muestran una sola vez y
            viven solo en tu servidor. También registras el dominio de tu plataforma y la URL de tu webhook.
          </p>
          <p>
            Una llave secreta nunca va en un navegador: una solicitud que la trae con encabezado {code('Origin')} se rechaza con
            401. Si una se expone, revócala en la consola y crea otra.
          </p>
        </Step>
        <Step n={2} title="Una sesión desde tu servidor">
          <p>
            Tu servidor llama a {code('POST /api/partner/v1/verification-sessions')} con {code('Authorization: Bearer sk_…')},
            tu {code('reference')}, el {code('requiredLevel')} que necesitas (2: correo verificado; 3: verificación biométrica
            vigente) y solo los {code('claims')} que usarás ({code('name')}, {code('profileId')}, {code('validUntil')},{' '}
            {code('level')}). Entrega a tu página solo el {code('clientSecret')}: vale una vez y por tiempo limitado. Los ejemplos
            en Node.js, PHP y Go reciben el nivel como parámetro.
          </p>
          <p>
            También puedes pedir los datos de la identificación oficial que certifica el perfil: {code('givenName')} y{' '}
            {code('familyName')} (como aparecen en la identificación), {code('birthdate')} ({code('AAAA-MM-DD')}),{' '}
            {code('ageOver18')} (verdadero o falso el día en que se comparte, sin la fecha de nacimiento),{' '}
            {code('nationality')} (ISO 3166-1 alfa-3) y {code('curp')}. La persona ve cada uno en palabras antes de aceptar; la
            fecha de nacimiento y la CURP solo se comparten si las pides y ella acepta en esa pantalla. Si el perfil se validó
            antes de que leyéramos identificaciones, o la identificación no trae el dato, ese dato no va en {code('shared')} y
            aparece en {code('unavailableClaims')}. Pide {code('ageOver18')} en lugar de {code('birthdate')} si solo necesitas
            saber que es mayor de edad.
          </p>
        </Step>
        <Step n={3} title="El widget en tu página">
          <p>
            Carga nuestro script con su {code('integrity=')}: el navegador solo lo ejecuta si es exactamente el archivo que
            publicamos. Luego {code(`PerfilSeguro('${PUBLISHABLE_KEY_PLACEHOLDER}').verify(clientSecret)`)} abre nuestra ventana
            (en teléfonos, una página completa que vuelve a tu {code('returnUrl')}); o usa el elemento{' '}
            {code('<perfil-seguro-button>')}. La promesa entrega solo {code('{ id, status }')}: ningún dato de la persona pasa por
            tu página.
          </p>
          <CodeBlock title="Script del widget con integrity" code={scriptTag} language="html-guia" />
        </Step>
        <Step n={4} title="El resultado, en tu servidor y en tu webhook">
          <p>
            Confirma con {code('GET /api/partner/v1/verification-sessions/{id}')}: una sesión {code('completed')} trae{' '}
            {code('shared')} (exactamente lo pedido) y {code('proof')}, un JWS que compruebas con las llaves de{' '}
            {code('/.well-known/jwt-vc-issuer')}. Tu webhook recibe {code('verification_session.completed')},{' '}
            {code('.declined')}, {code('.expired')} y {code('profile.access_revoked')}, firmados en{' '}
            {code('X-PerfilSeguro-Signature')} ({code('t=…,v1=…')}, HMAC-SHA256 de {code('"<t>.<cuerpo>"')} con tu secreto, 5
            minutos de tolerancia); descarta las entregas repetidas por {code('X-PerfilSeguro-Delivery')}.
          </p>
          <p>
            Lo compartido no es tuyo para siempre: si la persona retira el acceso de tu plataforma o elimina su cuenta, la sesión
            responde solo su estado, {code('"shared": null')} con {code('"sharedReason": "withdrawn"')} o{' '}
            {code('"deleted"')}, sin {code('proof')}, y un reenvío de la notificación llega en esa misma forma, solo con el estado.
          </p>
        </Step>
        <Step n={5} title="Prueba sin datos reales">
          <p>
            Con las llaves de prueba ({code('pk_test_…')}, {code('sk_test_…')}) todo funciona igual, sin tocar perfiles reales: las
            personas que se registran en una sesión de prueba son tus personas de prueba, sus códigos y correos no salen por
            WhatsApp ni por correo y los ves en la pestaña <strong>Bandeja de prueba</strong> de la consola. Tus sesiones y
            webhooks de prueba llevan {code('"livemode": false')}.
          </p>
        </Step>
      </ol>
      <Card>
        <CardBody className="flex-row items-start gap-4">
          <History className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden />
          <div>
            <h2 className="text-lg font-semibold">¿Usas el widget de la primera versión?</h2>
            <p className="mt-1 text-sm text-base-content/80">
              {code('/api/widget/login')}, {code('/api/widget/verify-code')} y {code('/api/widget/verify')} siguen documentados,
              con sus reglas actuales: cada llamada lleva tu llave, y el dominio solo ya no basta (401 con encabezados{' '}
              {code('Deprecation')} y {code('Sunset')}).
            </p>
            <p className="mt-2 text-sm">
              <a href={`#${LEGACY_ANCHOR}`} className="link link-primary font-medium" onClick={onLegacy}>
                Ver las llamadas heredadas
              </a>
            </p>
          </div>
        </CardBody>
      </Card>
      {/* The flow is ours, but the partner's page asks for the person's trust first: the
          notice must be one click away there, before the first call. */}
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
