import type { MockReply } from './mock-api'

/** The roles of an administrator, as the server names them. */
export type AdminRoleName = 'administrador' | 'soporte' | 'finanzas'

/** Sets the flags a signed-in administrator's browser holds; ageMs back-dates the sign-in. */
export function signInAdmin(ageMs = 0) {
  localStorage.setItem('adminAuthenticated', 'true')
  localStorage.setItem('adminLoginTime', String(Date.now() - ageMs))
}

/** GET /api/admin/session's answer for an administrator of the role, valid for an hour. */
export function adminSession(role: AdminRoleName): MockReply {
  return {
    json: {
      success: true,
      authenticated: true,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      admin: { id: 7, email: `${role}@perfilseguro.mx`, name: `Prueba ${role}`, role },
    },
  }
}
