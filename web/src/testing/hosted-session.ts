/** A hosted verification session's client secret, as /conectar receives it. */
export const hostedSecret = 'vs_0123456789abcdef01234567_secret_' + 'ab'.repeat(24)

/** The hosted session view (POST /api/hosted/open answers it) of a CasaLista demo session in progress, with the fields a test sets. */
export function hostedSessionView<T extends object>(fields: T) {
  return {
    id: 'vs_0123456789abcdef01234567',
    status: 'in_progress',
    partnerName: 'CasaLista (demo)',
    partnerOrigin: 'http://127.0.0.1:8081',
    requiredLevel: 3,
    ...fields,
  }
}
