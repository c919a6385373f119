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

const sampleProfileId = 'PS-4821-7730-15'

/** The three widget endpoints of SPEC §7 with sample responses (shapes of SPEC §3). */
export const widgetEndpoints: EndpointDoc[] = [
  {
    method: 'POST',
    path: '/api/widget/login',
    title: 'Inicio de sesión o registro',
    description:
      'Envía un código de 6 dígitos a la persona. Si el correo o el teléfono no existen, registra a la persona. Envía email, phoneNumber (formato internacional, p. ej. +525512345678) o ambos.',
    request: JSON.stringify({ email: 'cliente@ejemplo.com', phoneNumber: '+525512345678' }, null, 2),
    response: JSON.stringify(
      {
        success: true,
        message: 'Te hemos enviado un código de verificación por WhatsApp.',
        codeRequested: true,
        verified: false,
        userId: 1042,
        sessionToken: '9f1c2e7a…',
        data: { userId: 1042, profileId: sampleProfileId, verificationLevel: 0 },
        isNewUser: true,
        nextStep: 'verify_code',
      },
      null,
      2,
    ),
  },
  {
    method: 'POST',
    path: '/api/widget/verify-code',
    title: 'Verificación del código',
    description:
      'Valida el código recibido. Usa el userId que devolvió el inicio de sesión, no el correo. Al verificar, la persona alcanza el nivel 1.',
    request: JSON.stringify({ userId: 1042, code: '123456' }, null, 2),
    response: JSON.stringify(
      {
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
      },
      null,
      2,
    ),
  },
  {
    method: 'GET',
    path: '/api/widget/verify?email={email}',
    title: 'Consulta de estado',
    description:
      'Devuelve el estado de validación de un perfil por su correo electrónico. vigencia es la fecha de fin de la validación (ISO 8601) o null si aún no está validado.',
    response: JSON.stringify(
      {
        valid: true,
        verified: true,
        name: 'María Fernanda López',
        profileId: sampleProfileId,
        vigencia: '2027-11-21T18:30:00Z',
        message: 'Identidad verificada.',
      },
      null,
      2,
    ),
  },
]

/** The nextStep values a client follows (SPEC §4 'Widget flow'). */
export const nextSteps = [
  { value: 'verify_code', text: 'Se envió un código: pídelo a la persona y verifícalo.' },
  { value: 'biometric_verification', text: 'Teléfono verificado (nivel 1): sigue la validación biométrica.' },
  { value: 'complete', text: 'Validación completa (nivel 3): el perfil está verificado.' },
] as const
