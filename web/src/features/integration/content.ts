// What the integration documentation says (SPEC §2 'Integration documentation'), kept apart from the markup.

/** The four tabs, in order. */
export const integrationTabs = [
  { id: 'resumen', label: 'Resumen' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'ejemplos', label: 'Ejemplos' },
  { id: 'guia', label: 'Guía' },
] as const

/** A tab id. */
export type IntegrationTabId = (typeof integrationTabs)[number]['id']

/** What the widget does, shown in 'Resumen'. */
export const widgetFeatures = [
  {
    key: 'sms',
    title: 'Verificación SMS automática',
    text: 'Enviamos un código de 6 dígitos al teléfono de la persona y lo validamos por ti.',
  },
  {
    key: 'biometric',
    title: 'Validación biométrica',
    text: 'Reconocimiento facial y documentos oficiales con un proveedor externo especializado.',
  },
  {
    key: 'wallet',
    title: 'Apple Wallet y Google Wallet',
    text: 'Cada perfil validado obtiene un pase digital para su billetera móvil.',
  },
  {
    key: 'qr',
    title: 'QR dinámico',
    text: 'Un código QR que cualquiera puede escanear para comprobar la validación en línea.',
  },
] as const

/** Integration state of a platform. */
export type PlatformStatus = 'Implementado' | 'Integrado' | 'Disponible'

/** The compatible platforms (DECISIONS.md names the sister platforms). */
export const compatiblePlatforms: { name: string; description: string; status: PlatformStatus }[] = [
  { name: 'CasaLista', description: 'Marketplace de propiedades', status: 'Implementado' },
  { name: 'VentaDirecta', description: 'Venta directa de inmuebles', status: 'Implementado' },
  { name: 'ValorCasa', description: 'Avalúos y valuación', status: 'Integrado' },
  { name: 'Tu plataforma', description: 'Integra el widget en tu sitio', status: 'Disponible' },
]

/** One widget endpoint with its sample exchange. */
export interface EndpointDoc {
  method: 'GET' | 'POST'
  path: string
  title: string
  description: string
  request?: string
  response: string
}

/** A sample body as the docs print it: JSON indented by two spaces. */
const json = (value: unknown) => JSON.stringify(value, null, 2)

const sampleProfileId = 'PS-4821-7730-15'

/** The three widget endpoints of SPEC §7 with sample responses (shapes of SPEC §3). */
export const widgetEndpoints: EndpointDoc[] = [
  {
    method: 'POST',
    path: '/api/widget/login',
    title: 'Inicio de sesión o registro',
    description:
      'Envía un código de 6 dígitos a la persona. Si el correo o el teléfono no existen, registra a la persona. Envía email, phoneNumber (formato internacional, p. ej. +525512345678) o ambos.',
    request: json({ email: 'cliente@ejemplo.com', phoneNumber: '+525512345678' }),
    response: json({
      success: true,
      message: 'Te hemos enviado un código de verificación por WhatsApp.',
      codeRequested: true,
      verified: false,
      userId: 1042,
      sessionToken: '9f1c2e7a…',
      data: { userId: 1042, profileId: sampleProfileId, verificationLevel: 0 },
      isNewUser: true,
      nextStep: 'verify_code',
    }),
  },
  {
    method: 'POST',
    path: '/api/widget/verify-code',
    title: 'Verificación del código',
    description:
      'Valida el código recibido. Usa el userId que devolvió el inicio de sesión, no el correo. Al verificar, la persona alcanza el nivel 1.',
    request: json({ userId: 1042, code: '123456' }),
    response: json({
      success: true,
      verified: true,
      message: 'Tu identidad ha sido verificada correctamente.',
      userId: 1042,
      profileId: sampleProfileId,
      data: {
        userId: 1042,
        verified: true,
        verification_level: 1,
        verificationType: 'phone',
        nextStep: 'biometric_verification',
      },
    }),
  },
  {
    method: 'GET',
    path: '/api/widget/verify?email={email}',
    title: 'Consulta de estado',
    description:
      'Devuelve el estado de validación de un perfil por su correo electrónico. vigencia es la fecha de fin de la validación (ISO 8601) o null si aún no está validado.',
    response: json({
      valid: true,
      verified: true,
      name: 'María Fernanda López',
      profileId: sampleProfileId,
      vigencia: '2027-11-21T18:30:00Z',
      message: 'Identidad verificada.',
    }),
  },
]

const samplePresentationId = '5b0c7d52-3f1e-4c8a-9d3b-8e2f6a1c4d90'

/** The presentation endpoints (issue 28): a partner asks a person's wallet for chosen claims. */
export const presentationEndpoints: EndpointDoc[] = [
  {
    method: 'POST',
    path: '/api/widget/presentations',
    title: 'Solicitud de presentación (billetera digital)',
    description:
      'Pide a la billetera digital de la persona los datos de su credencial que necesitas (OpenID4VP): claims es la lista de datos, por ejemplo ["name"]; también acepta una consulta DCQL en dcql_query. Muestra el QR (qrUrl, una imagen PNG en data: URL) o el enlace requestUri en el teléfono de la persona. La solicitud vale 5 minutos y se responde una sola vez.',
    request: json({ claims: ['name'] }),
    response: json({
      id: samplePresentationId,
      requestUri: `openid4vp://?client_id=x509_san_dns%3Aperfilseguro.mx&request_uri=https%3A%2F%2Fperfilseguro.mx%2Fapi%2Foid4vp%2Frequests%2F${samplePresentationId}`,
      qrUrl: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA…',
      expiresAt: '2026-11-24T18:35:00Z',
    }),
  },
  {
    method: 'GET',
    path: '/api/widget/presentations/{id}',
    title: 'Estado de la presentación',
    description:
      'Consulta tu solicitud cada 2 segundos hasta que status deje de ser pending: completed (claims trae solo los datos pedidos, como los compartió la persona, y solo si consultas desde tu servidor con tu llave secreta: Authorization: Bearer sk_…; con la llave publicable o desde el navegador ves el estado, nunca los datos), failed (error dice por qué se rechazó) o expired. Al completarse también recibes el webhook presentation.completed.',
    response: json({
      id: samplePresentationId,
      status: 'completed',
      claims: { name: 'María Fernanda López' },
      expiresAt: '2026-11-24T18:35:00Z',
      completedAt: '2026-11-24T18:31:12Z',
    }),
  },
]

/** The nextStep values a client follows (SPEC §4 'Widget flow'). */
export const nextSteps = [
  { value: 'verify_code', text: 'Se envió un código: pídelo a la persona y verifícalo.' },
  { value: 'biometric_verification', text: 'Teléfono verificado (nivel 1): sigue la validación biométrica.' },
  { value: 'complete', text: 'Validación completa (nivel 3): el perfil está verificado.' },
] as const
