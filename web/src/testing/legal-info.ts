import type { LegalInfo } from '@/features/legal/api/get-legal-info'

/** A GET /api/legal answer shaped like the Go server's (privacy.go). */
export const legalInfoFixture: LegalInfo = {
  version: '2026-11-28',
  date: '2026-11-28',
  legalName: 'Perfil Seguro, S.A. de C.V.',
  legalAddress: 'Av. Paseo de la Reforma 000, Col. Juárez, Cuauhtémoc, 06600, Ciudad de México',
  privacyEmail: 'privacidad@perfilseguro.mx',
  supportEmail: 'soporte@perfilseguro.mx',
  retention: [
    {
      key: 'account',
      data: 'Tu perfil: nombre, correo, teléfono, niveles, resultado biométrico (decisión y puntajes, nunca imágenes) y los datos que el proveedor leyó de tu identificación oficial, con la huella cifrada de tu CURP o de su número',
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
  primaryPurposes: [
    {
      label: 'Validar tu identidad',
      description:
        'Validamos tu identidad en tres niveles: tu teléfono con un código por WhatsApp (nivel 1), tu correo con un enlace (nivel 2) y tu rostro e identificación oficial con un proveedor de verificación biométrica (nivel 3). En el nivel 3 validamos lo que dice tu identificación (tu nombre, tu fecha de nacimiento y tu CURP), no lo que escribiste: lo comparamos con tus datos de registro y revisamos que la identificación esté vigente y que seas mayor de edad.',
    },
    {
      label: 'Una identificación, un perfil',
      description:
        'Guardamos una huella cifrada de tu CURP (o, si tu identificación no tiene CURP, de su número y país), un código del que no se puede obtener el dato, para que una misma identificación no valide más de un perfil.',
    },
    {
      label: 'Emitir y mantener tu Perfil Seguro',
      description:
        'Emitimos y mantenemos tu ID de perfil, tu código QR, tus pases de Apple Wallet y Google Wallet y tu credencial verificable, y los actualizamos o anulamos cuando tu validación vence, se revoca o eliminas tu cuenta.',
    },
    {
      label: 'Permitir que comprueben tu validación',
      description: 'Las personas con las que compartes tu QR o tu ID de perfil, y las plataformas aliadas que autorices, pueden comprobar tu validación.',
    },
    { label: 'Enviarte códigos y avisos del servicio', description: 'Te enviamos los códigos para iniciar sesión, los enlaces de verificación y los avisos necesarios del servicio.' },
    { label: 'Cobrar tu plan', description: 'Cobramos los planes de pago y emitimos tus comprobantes.' },
    { label: 'Proteger tu cuenta', description: 'Cuidamos la seguridad de tu cuenta y del servicio y prevenimos fraudes y suplantación de identidad.' },
    { label: 'Atenderte', description: 'Atendemos tus solicitudes, dudas y aclaraciones.' },
    { label: 'Cumplir la ley', description: 'Cumplimos obligaciones legales, como las fiscales, y los requerimientos de autoridades competentes.' },
  ],
  secondaryPurposes: [
    {
      purpose: 'partner_notifications',
      label: 'Avisos a plataformas aliadas',
      description: 'Avisamos a la plataforma por la que llegaste cuando tu validación cambia.',
    },
    { purpose: 'reminders', label: 'Recordatorios de vigencia', description: 'Te avisamos 30 y 7 días antes de que venza tu validación.' },
  ],
  authority: { name: 'Secretaría Anticorrupción y Buen Gobierno', url: 'https://www.gob.mx/buengobierno' },
}
