// Mi Perfil's person as GET /api/users/7 answers it: the one fixture of the profile route tests.

/** The signed-in person of the profile tests (id 7, level 1, not validated). */
export const baseProfileUser = {
  id: 7,
  nombre: 'Ana López',
  email: 'ana@example.com',
  phoneNumber: '+525512345678',
  origen: 'Otro',
  vigencia: 1,
  id_validado: 'PS-1111-2222-33',
  profileId: 'PS-1111-2222-33',
  fecha_validacion: null as string | null,
  qr_url: null as string | null,
  verificationLevel: 1,
  biometricVerified: false,
}

/** The person with the fields a test needs changed (or added). */
export function profileUser<T extends object>(changes: T): typeof baseProfileUser & T {
  return { ...baseProfileUser, ...changes }
}
