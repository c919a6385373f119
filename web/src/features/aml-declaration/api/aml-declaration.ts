import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { apiRequest } from '@/lib/api-client'

// The know-your-client declaration (api/aml_declaration.go): the person answers, reviews the exact
// text and signs it with a code or a passkey; each signature is a new version.

/** The beneficiario controlador the person acts for. */
export type AmlBeneficiary = { name: string; birthDate: string; curpOrRfc: string; relationship: string }

/** The declaration's answers. */
export type AmlAnswers = {
  occupation: string
  address: string
  rfc: string
  nationality: string
  forBeneficiary: boolean
  beneficiary?: AmlBeneficiary
  pep: boolean
  pepPosition?: string
}

/** One signed version. */
export type AmlDeclaration = {
  version: number
  signedAt: string
  method: 'passkey' | 'codigo'
  textSha256: string
  answers: AmlAnswers
}

/** Who received a version. */
export type AmlDeclarationShare = { version: number; partnerName: string; sharedAt: string; notifiedAt: string | null }

/** GET /api/users/{id}/aml-declaration. */
export type AmlDeclarationState = {
  current: (AmlDeclaration & { text: string }) | null
  history: AmlDeclaration[]
  shares: AmlDeclarationShare[]
  prefill: { address: string; nationality: string; nationalityFromId: boolean }
}

/** A draft the person reviews; confirmRfc accepts an RFC whose only problem is its check digit. */
export type AmlDraft = { answers: AmlAnswers; confirmRfc?: boolean }

/** The exact text to sign and its SHA-256. */
export type AmlText = { text: string; textSha256: string }

/** A new signed version; notified: businesses that received an earlier one and got this one. */
export type AmlSigned = { declaration: AmlDeclaration & { text: string }; notified: number }

const base = (userId: string) => `/api/users/${encodeURIComponent(userId)}/aml-declaration`

/** The query key of a person's declaration. */
export const amlDeclarationKey = (userId: string) => ['aml-declaration', userId] as const

export function getAmlDeclaration(userId: string) {
  return apiRequest<AmlDeclarationState>('GET', base(userId))
}

export function reviewAmlDeclaration(userId: string, draft: AmlDraft) {
  return apiRequest<AmlText>('POST', `${base(userId)}/text`, draft)
}

export function signAmlDeclarationWithCode(userId: string, draft: AmlDraft, textSha256: string, code: string) {
  return apiRequest<AmlSigned>('POST', base(userId), { ...draft, textSha256, code })
}

/** Signs with a passkey: the confirmation's passkey options, the browser's window, then the signature. */
export async function signAmlDeclarationWithPasskey(userId: string, draft: AmlDraft, textSha256: string) {
  const options = await apiRequest<{ publicKey: unknown }>('POST', `/api/users/${encodeURIComponent(userId)}/confirmation/passkey/options`)
  const credential = await startAuthentication({ optionsJSON: options.publicKey as PublicKeyCredentialRequestOptionsJSON })
  return apiRequest<AmlSigned>('POST', `${base(userId)}/passkey`, { ...draft, textSha256, credential })
}

/** Nationalities the form offers when the ID does not give one (ISO 3166-1 alfa-3). */
export const nationalities: { value: string; label: string }[] = [
  { value: 'MEX', label: 'Mexicana' },
  { value: 'USA', label: 'Estadounidense' },
  { value: 'CAN', label: 'Canadiense' },
  { value: 'GTM', label: 'Guatemalteca' },
  { value: 'COL', label: 'Colombiana' },
  { value: 'VEN', label: 'Venezolana' },
  { value: 'ARG', label: 'Argentina' },
  { value: 'ESP', label: 'Española' },
  { value: 'CUB', label: 'Cubana' },
  { value: 'HND', label: 'Hondureña' },
  { value: 'SLV', label: 'Salvadoreña' },
  { value: 'CHN', label: 'China' },
]

/** A nationality as people read it. */
export function nationalityLabel(code: string): string {
  return nationalities.find((n) => n.value === code)?.label ?? code
}

/** The RFC's shape (aml.ValidRFC does the rest on the server, check digit included). */
export const rfcShape = /^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{2}[0-9A]$/

/** What the form says of an RFC that does not have the shape. */
export const rfcShapeMessage =
  'El RFC no tiene el formato correcto: 4 letras, 6 dígitos de fecha y 3 de homoclave (persona física) o 3 letras (persona moral)'
