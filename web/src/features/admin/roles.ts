import type { Schema } from '@/lib/api-types'

/** An administrator's role (admins.role). */
export type AdminRole = Schema<'Admin'>['role']

/** What the panel shows per role; the server checks the same on every route (api/admin_roles.go). */
export type AdminAbility =
  | 'editUsers'
  | 'revoke'
  | 'liftRevocation'
  | 'deleteUsers'
  | 'refund'
  | 'partners'
  | 'admins'
  | 'audit'
  | 'arco'
  | 'monitoring'
  | 'identityReview'
  | 'amlEdit'

const abilities: Record<AdminRole, AdminAbility[]> = {
  administrador: ['editUsers', 'revoke', 'liftRevocation', 'deleteUsers', 'refund', 'partners', 'admins', 'audit', 'arco', 'monitoring', 'identityReview', 'amlEdit'],
  soporte: ['arco', 'identityReview'],
  finanzas: ['refund'],
}

/** Whether role may do ability; an unknown role (session not loaded yet) shows everything, the server decides. */
export function can(role: AdminRole | undefined, ability: AdminAbility): boolean {
  return role === undefined || abilities[role].includes(ability)
}

/** The Spanish names of the roles. */
export const ROLE_LABEL: Record<AdminRole, string> = {
  administrador: 'Administrador',
  soporte: 'Soporte',
  finanzas: 'Finanzas',
}
