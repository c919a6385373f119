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

/** One endpoint with its sample exchange. */
export interface EndpointDoc {
  method: 'GET' | 'POST'
  path: string
  title: string
  /** Which key the call carries, and from where. */
  auth: string
  description: string
  request?: string
  response: string
  /** A second answer worth showing (a session after the person withdrew access). */
  alternate?: { title: string; code: string }
}

/** A sample body as the docs print it: JSON indented by two spaces. */
const json = (value: unknown) => JSON.stringify(value, null, 2)

const sampleProfileId = 'PS-4821-7730-15'

/** A widget sign-in attempt id as /api/widget/login answers it (not the person's id). */
const sampleAttempt = 4731029584710293

/** The first version's three widget endpoints (SPEC §7), with the rules they follow now. */
export const widgetEndpoints: EndpointDoc[] = [
  {
    method: 'POST',
    path: '/api/widget/login',
    title: 'Inicio de sesión o registro',
    auth: 'Llave publicable en X-Partner-Key: desde tu dominio registrado (navegador) o desde tu servidor.',
    description:
      'Envía un código de 6 dígitos a la persona. Si el correo o el teléfono no existen, registra a la persona. Envía email, phoneNumber (formato internacional, p. ej. +525512345678) o ambos. userId identifica este intento de inicio de sesión (no a la persona) y solo sirve para la verificación del código, con la misma llave. Los envíos tienen límite por llave, por destino y por dirección IP (429 con Retry-After).',
    request: json({ email: 'cliente@ejemplo.com', phoneNumber: '+525512345678' }),
    response: json({
      success: true,
      message: 'Te hemos enviado un código de verificación por WhatsApp.',
      codeRequested: true,
      verified: false,
      userId: sampleAttempt,
      sessionToken: '9f1c2e7a…',
      data: { userId: sampleAttempt, profileId: sampleProfileId, verificationLevel: 0 },
      isNewUser: true,
      nextStep: 'verify_code',
    }),
  },
  {
    method: 'POST',
    path: '/api/widget/verify-code',
    title: 'Verificación del código',
    auth: 'Llave publicable en X-Partner-Key, la misma del inicio de sesión.',
    description:
      'Valida el código recibido. Usa el userId que devolvió el inicio de sesión, no el correo. Al verificar, la persona alcanza el nivel 1.',
    request: json({ userId: sampleAttempt, code: '123456' }),
    response: json({
      success: true,
      verified: true,
      message: 'Tu identidad ha sido verificada correctamente.',
      userId: sampleAttempt,
      profileId: sampleProfileId,
      data: {
        userId: sampleAttempt,
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
    auth: 'Llave secreta (Authorization: Bearer sk_live_…), solo desde tu servidor: el navegador no puede llamarla.',
    description:
      'Devuelve el estado de validación de una persona que compartió su perfil con tu plataforma, solo con los datos que compartió (aquí, nombre y vigencia). De cualquier otra persona, exista o no su correo, responde la misma forma sin datos: valid false y name, profileId vacíos. vigencia es la fecha de fin de la validación (ISO 8601) o null. Cada llave secreta tiene un límite de consultas por minuto (429 con Retry-After); cada consulta aparece en «Consultas a tu perfil» de la persona.',
    response: json({
      valid: true,
      verified: true,
      name: 'María Fernanda López',
      profileId: '',
      vigencia: '2027-11-21T18:30:00Z',
      message: 'Identidad verificada.',
    }),
  },
]

const sampleSessionId = 'vs_6f1d2c3b4a5e6f7081920a1b'
const sampleCreatedAt = '2026-11-24T18:30:00Z'

/** The verification-session endpoints of the partner API: what partners use now. */
export const sessionEndpoints: EndpointDoc[] = [
  {
    method: 'POST',
    path: '/api/partner/v1/verification-sessions',
    title: 'Abrir una sesión de verificación',
    auth: 'Llave secreta (Authorization: Bearer sk_live_… o sk_test_…), solo desde tu servidor.',
    description:
      'requiredLevel es el nivel que necesitas: 2 (correo verificado) o 3 (verificación biométrica vigente). claims, solo los datos que necesitas: name, profileId, validUntil, level y, de la identificación oficial que certifica el perfil, givenName, familyName, birthdate (AAAA-MM-DD), ageOver18 (mayor de 18 años el día en que se comparte, sin la fecha), nationality (ISO 3166-1 alfa-3) y curp; la persona ve cada uno en palabras, y la fecha de nacimiento y la CURP solo se comparten si las pides y ella acepta. reference es tu propio identificador; returnUrl, en tu dominio registrado, es a donde vuelve la variante de página completa. Entrega clientSecret a tu página para el widget: vale una vez y por tiempo limitado. url abre el mismo flujo como redirección.',
    request: json({
      reference: 'cliente-42',
      requiredLevel: 3,
      claims: ['name', 'validUntil'],
      returnUrl: 'https://www.tuplataforma.mx/vuelta',
    }),
    response: json({
      id: sampleSessionId,
      clientSecret: `${sampleSessionId}_secret_…`,
      url: `https://perfilseguro.mx/conectar?mode=redirect&pk=pk_live_…#${sampleSessionId}_secret_…`,
      expiresAt: '2026-11-25T18:30:00Z',
      livemode: true,
    }),
  },
  {
    method: 'GET',
    path: '/api/partner/v1/verification-sessions/{id}',
    title: 'Consultar una sesión',
    auth: 'Llave secreta, solo desde tu servidor.',
    description:
      'status: created, in_progress, completed (la persona compartió), declined (no compartió nada), expired o canceled. Una sesión completed trae shared, exactamente los datos pedidos, y proof; un dato de la identificación que el perfil no puede dar (se validó antes de que leyéramos identificaciones, o la identificación no lo trae) no va en shared y se lista en unavailableClaims. proof es un JWS (ES256) que compruebas con las llaves de /.well-known/jwt-vc-issuer. Si después la persona retira el acceso de tu plataforma (Mi Perfil › Plataformas con acceso) o elimina su cuenta, la sesión responde solo su estado: "shared": null, "sharedReason": "withdrawn" o "deleted", y sin proof.',
    response: json({
      id: sampleSessionId,
      status: 'completed',
      reference: 'cliente-42',
      livemode: true,
      requiredLevel: 3,
      claims: ['name', 'validUntil', 'ageOver18', 'curp'],
      shared: { name: 'María Fernanda López', validUntil: '2027-11-21T18:30:00Z', ageOver18: true },
      unavailableClaims: ['curp'],
      proof: 'eyJhbGciOiJFUzI1NiIsInR5cCI6InBlcmZpbHNlZ3Vyby1zZXNzaW9uK2p3dCJ9…',
      createdAt: sampleCreatedAt,
      expiresAt: '2026-11-25T18:30:00Z',
      endedAt: '2026-11-24T18:41:07Z',
    }),
    alternate: {
      title: 'Después de un retiro o de una eliminación de cuenta',
      code: json({
        id: sampleSessionId,
        status: 'completed',
        reference: 'cliente-42',
        livemode: true,
        requiredLevel: 3,
        claims: ['name', 'validUntil'],
        shared: null,
        sharedReason: 'withdrawn',
        createdAt: sampleCreatedAt,
        expiresAt: '2026-11-25T18:30:00Z',
        endedAt: '2026-11-24T18:41:07Z',
      }),
    },
  },
  {
    method: 'GET',
    path: '/api/partner/v1/verification-sessions?limit=20&startingAfter={id}',
    title: 'Listar sesiones',
    auth: 'Llave secreta, solo desde tu servidor.',
    description:
      'Tus sesiones del modo de la llave, de la más reciente a la más antigua; para la página siguiente, startingAfter es el id de la última. Cada una con la misma forma que su consulta.',
    response: json({
      data: [
        {
          id: 'vs_0a1b2c3d4e5f60718293a4b5',
          status: 'declined',
          reference: 'cliente-41',
          livemode: true,
          requiredLevel: 2,
          claims: ['name'],
          createdAt: '2026-11-24T17:02:00Z',
          expiresAt: '2026-11-25T17:02:00Z',
          endedAt: '2026-11-24T17:05:31Z',
        },
      ],
      hasMore: false,
    }),
  },
  {
    method: 'POST',
    path: '/api/partner/v1/verification-sessions/{id}/cancel',
    title: 'Cancelar una sesión abierta',
    auth: 'Llave secreta, solo desde tu servidor.',
    description: 'Cierra una sesión que nadie terminó (status canceled); una que ya terminó responde 409.',
    response: json({
      id: sampleSessionId,
      status: 'canceled',
      reference: 'cliente-42',
      livemode: true,
      requiredLevel: 3,
      claims: ['name', 'validUntil'],
      createdAt: sampleCreatedAt,
      expiresAt: '2026-11-25T18:30:00Z',
      endedAt: '2026-11-24T18:35:12Z',
    }),
  },
]

/** The deprecation headers of a first-version widget call made on the origin alone (api/partners.go). */
export const originOnlyDeprecation = {
  deprecation: '@1767225600',
  sunset: 'Wed, 31 Mar 2027 00:00:00 GMT',
  link: '</integration#llamadas-heredadas>; rel="deprecation"',
} as const

/** The anchor of the legacy calls' section, named by the deprecation headers' Link. */
export const LEGACY_ANCHOR = 'llamadas-heredadas'

/** The webhook events a partner receives about its sessions and the people who shared with it. */
export const sessionWebhookEvents = [
  {
    name: 'verification_session.completed',
    text: 'la persona compartió: trae claims (los datos) y proof. Un reintento o un reenvío posterior a un retiro o a una eliminación de cuenta llega solo con el estado: "shared": null y sharedReason, sin claims ni proof.',
  },
  { name: 'verification_session.declined', text: 'la persona decidió no compartir; no trae datos.' },
  { name: 'verification_session.expired', text: 'nadie terminó la sesión a tiempo.' },
  {
    name: 'profile.access_revoked',
    text: 'la persona retiró el acceso de tu plataforma: sessions lista sus sesiones contigo, con tu reference; desde ese momento responden solo su estado.',
  },
] as const

const samplePresentationId = '5b0c7d52-3f1e-4c8a-9d3b-8e2f6a1c4d90'

/** The presentation endpoints (issue 28): a partner asks a person's wallet for chosen claims. */
export const presentationEndpoints: EndpointDoc[] = [
  {
    method: 'POST',
    path: '/api/widget/presentations',
    title: 'Solicitud de presentación (billetera digital)',
    auth: 'Llave publicable en X-Partner-Key desde tu dominio registrado, o llave secreta desde tu servidor.',
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
    auth: 'Llave secreta desde tu servidor para leer los datos; con la publicable, solo el estado.',
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
