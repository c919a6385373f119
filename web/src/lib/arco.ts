// ARCO requests (acceso, rectificación, cancelación, oposición): the words both the person's
// "Mis solicitudes" and the administrators' queue use.

/** The four ARCO rights. */
export type ArcoType = 'acceso' | 'rectificacion' | 'cancelacion' | 'oposicion'

/** Where an ARCO request stands. */
export type ArcoState = 'recibida' | 'en_proceso' | 'atendida' | 'rechazada'

/** How a request arrived: from the app, or by e-mail and recorded by an administrator. */
export type ArcoChannel = 'app' | 'correo'

/** A request to exercise an ARCO right, from the app or recorded from an e-mail, as both the person and the administrators read it. */
export type ArcoRequest = {
  id: number
  type: ArcoType
  state: ArcoState
  channel: ArcoChannel
  receivedAt: string
  /** The legal deadline (20 business days after it was received). */
  dueAt: string
  resolvedAt: string | null
}

/** The rights in Spanish. */
export const ARCO_TYPE_LABEL: Record<ArcoType, string> = {
  acceso: 'Acceso',
  rectificacion: 'Rectificación',
  cancelacion: 'Cancelación',
  oposicion: 'Oposición',
}

/** The states in Spanish. */
export const ARCO_STATE_LABEL: Record<ArcoState, string> = {
  recibida: 'Recibida',
  en_proceso: 'En proceso',
  atendida: 'Atendida',
  rechazada: 'Rechazada',
}

/** The channels in Spanish. */
export const ARCO_CHANNEL_LABEL: Record<ArcoChannel, string> = {
  app: 'App',
  correo: 'Correo',
}

/** Whether a request still awaits an answer. */
export function isArcoOpen(state: ArcoState): boolean {
  return state === 'recibida' || state === 'en_proceso'
}
