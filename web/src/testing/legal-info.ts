import type { LegalInfo } from '@/features/legal/api/get-legal-info'

/** A GET /api/legal answer shaped like the Go server's (privacy.go). */
export const legalInfoFixture: LegalInfo = {
  version: '2026-11',
  date: '2026-11-24',
  legalName: 'Perfil Seguro, S.A. de C.V.',
  legalAddress: 'Av. Paseo de la Reforma 000, Col. Juárez, Cuauhtémoc, 06600, Ciudad de México',
  privacyEmail: 'privacidad@perfilseguro.mx',
  supportEmail: 'soporte@perfilseguro.mx',
  retention: [
    {
      key: 'account',
      data: 'Tu perfil: nombre, correo, teléfono, niveles y resultado biométrico (decisión y puntajes, nunca imágenes)',
      period: 'Mientras tu cuenta exista; se borra al eliminarla',
    },
    { key: 'provider_webhooks', data: 'Avisos firmados de los proveedores (biometría y pagos), tal como llegan', period: '30 días' },
    { key: 'lookup_logs', data: 'Registro de consultas a tu perfil (fecha, canal y plataforma)', period: '12 meses' },
    { key: 'data_exports', data: 'Archivo con la descarga de tus datos', period: '24 horas o hasta que lo descargues' },
    {
      key: 'deleted_consents',
      data: 'Registro de tus consentimientos',
      period: 'Mientras tu cuenta exista y 5 años después de eliminarla (bloqueo)',
    },
    {
      key: 'payment_receipts',
      data: 'Comprobantes de pago (folio, monto, fecha y método)',
      period: '5 años, aun si eliminas tu cuenta (obligación fiscal)',
    },
  ],
  secondaryPurposes: [
    {
      purpose: 'partner_notifications',
      label: 'Avisos a plataformas aliadas',
      description: 'Avisamos a la plataforma por la que llegaste cuando tu validación cambia.',
    },
    { purpose: 'reminders', label: 'Recordatorios de vigencia', description: 'Te avisamos 30 y 7 días antes de que venza tu validación.' },
  ],
}
