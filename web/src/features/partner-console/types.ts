// The partner console's API shapes, as the Go handlers answer them (api/partner_console*.go).
// Hand-written until scripts/api-types.sh regenerates lib/api-schema.d.ts with the /api/socios
// operations; keep them in step with the Go structs named beside each type.

/** A console role (partner_users.role). */
export type PartnerRole = 'propietario' | 'desarrollador' | 'cumplimiento' | 'lectura'

/** What a role may do (perfilseguro.PartnerAction). */
export type ConsoleAction = 'read' | 'keys' | 'webhook' | 'origin' | 'resend' | 'team' | 'operations' | 'compliance'

/** Test or live data. */
export type Mode = 'test' | 'live'

/** postgres.PartnerUser */
export type PartnerUser = {
  id: number
  email: string
  name: string
  role: PartnerRole
  createdAt: string
  invitedBy: string | null
  disabledAt: string | null
  enrolled: boolean
  lastSignInAt: string | null
}

/** api.ConsoleMeResponse */
export type ConsoleMe = {
  user: PartnerUser
  partner: { id: number; name: string; domain: string; isActive: boolean }
  actions: ConsoleAction[]
  expiresAt: string
}

/** api.PartnerEnrolInfo */
export type EnrolInfo = { email: string; name: string; role: PartnerRole; partnerName: string }

/** postgres.PartnerKey */
export type PartnerKey = {
  id: number
  kind: 'publishable' | 'secret'
  livemode: boolean
  hint: string
  createdAt: string
  createdBy: string | null
  lastUsedAt: string | null
  revokedAt: string | null
}

/** postgres.NewKey: a key with its full text, shown once. */
export type NewKey = PartnerKey & { key: string }

/** api.ConsoleWebhookResponse */
export type Webhook = {
  url: string
  hasSecret: boolean
  previousSecretUntil: string | null
  secret?: string
  message?: string
}

/** api.ConsoleDelivery */
export type Delivery = {
  id: number
  event: string
  status: 'delivered' | 'pending' | 'retrying' | 'failed'
  attempts: number
  statusCode: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
  nextAttemptAt: string | null
}

/** api.ConsoleDeliveryPage */
export type DeliveryPage = { data: Delivery[]; hasMore: boolean }

/** Why a completed session no longer holds what the person shared. */
export type SharedReason = 'withdrawn' | 'deleted'

/** api.ConsoleSession */
export type VerificationSession = {
  id: string
  status: 'created' | 'in_progress' | 'completed' | 'declined' | 'expired' | 'canceled'
  reference: string
  requiredLevel: number
  claims: string[]
  /** What the person shared (completed only); null once they withdrew access or deleted their account. */
  shared?: Record<string, unknown> | null
  /** Why a completed session's shared is null. */
  sharedReason?: SharedReason
  /** The session asked for the know-your-client declaration (issue 53). */
  amlProfile?: boolean
  /** The declaration shared in it (cumplimiento and propietario only; gone with shared). */
  amlDeclaration?: { version: number; signedAt: string; method: 'passkey' | 'codigo'; textSha256: string; answers: Record<string, unknown> }
  createdAt: string
  expiresAt: string
  endedAt: string | null
}

/** api.ConsoleSessionPage */
export type SessionPage = { mode: Mode; data: VerificationSession[]; hasMore: boolean }

/** api.ConsoleUsageResponse */
export type Usage = {
  mode: Mode
  requestsCount: number
  lastUsedAt: string | null
  months: { month: string; opened: number; completed: number; declined: number }[]
}

/** api.PartnerEnrolmentResponse: an enrolment link, shown once. */
export type EnrolmentLink = { user: PartnerUser; enrolmentUrl: string; expiresAt: string; message: string }

/** api.ConsoleTestMessage */
export type TestMessage = {
  id: number
  channel: 'whatsapp' | 'sms' | 'email'
  recipient: string
  subject?: string
  text: string
  createdAt: string
}

/** api.ConsoleTestInbox */
export type TestInbox = { data: TestMessage[] }

/** Where the platform stands in proving its origin (GET /api/socios/origin). */
export type OriginProof = {
  origin: string
  proven: boolean
  provenAt: string | null
  checkedAt: string | null
  checkError?: string
  /** A localhost origin: test mode only, never checked. */
  local: boolean
  /** Live keys work only once the origin is proven (production). */
  liveNeedsProof: boolean
  txtName: string
  txtValue: string
  fileUrl: string
  message?: string
}

/** aml.Activity: an LFPIORPI operation's kind. */
export type OperationKind = 'compraventa' | 'intermediacion' | 'desarrollo' | 'arrendamiento'

/** What the business is in an operation. */
export type BusinessRole = 'vendedor' | 'comprador' | 'intermediario' | 'desarrollador' | 'arrendador' | 'arrendatario'

/** What a person is in an operation. */
export type OperationPersonRole = 'comprador' | 'vendedor' | 'arrendador' | 'arrendatario' | 'otro'

/** api.OperationRequirement: amounts in pesos as strings with two decimals. */
export type OperationRequirement = {
  identify: boolean
  aviso: boolean
  umaYear: number
  umaDaily: string
  identificationThresholdPesos: string
  avisoThresholdPesos: string
}

/** api.OperationPersonView */
export type OperationPerson = {
  /** The person's id in the operation. */
  id?: number
  role: OperationPersonRole
  sessionId: string
  profileId?: string
  name?: string
  identityVerified: boolean
  /** Lists consulted and possible hits; null until the first screening (propietario and cumplimiento only). */
  screening?: PersonScreening | null
}

/** api.OperationRisk: aml.AssessRisk's level, score and the factors present. */
export type OperationRisk = {
  level: 'bajo' | 'medio' | 'alto'
  score: number
  factors: { key: string; text: string; weight: number }[]
}

/** api.OperationView */
export type Operation = {
  id: string
  livemode: boolean
  kind: OperationKind
  amount: string
  /** Paid in cash, pesos with two decimals ("0.00": none). */
  cash: string
  monthly: boolean
  date: string
  propertyReference: string
  businessRole: BusinessRole
  requirement: OperationRequirement | null
  requirementNote?: string
  people: OperationPerson[]
  createdAt: string
  retentionUntil: string
  /** The risk level and its factors; null for roles without compliance data. */
  risk?: OperationRisk | null
  /** A confirmed hit on a blocked-persons list stopped the operation. */
  stopped?: boolean
  stoppedAt?: string | null
  stoppedReason?: string
}

/** api.ConsoleOperationPage */
export type OperationPage = { mode: Mode; data: Operation[]; peopleHidden: boolean; hasMore: boolean }

/** api.ConsoleOperationCandidate: a completed session whose person can join an operation. */
export type OperationCandidate = {
  sessionId: string
  reference: string
  name?: string
  profileId?: string
  identityVerified: boolean
  completedAt: string
}

/** api.NewOperation */
export type NewOperation = {
  kind: OperationKind
  amount: string
  cash?: string
  date: string
  propertyReference: string
  businessRole: BusinessRole
  people: { role: OperationPersonRole; sessionId: string }[]
}

/** api.ScreeningCheckView: the latest screening of a person against one list. */
export type ScreeningCheck = {
  subject: 'persona' | 'beneficiario'
  source: 'lista' | 'proveedor'
  list: string
  version: number | null
  versionDate: string | null
  checkedAt: string
  candidates: number
  screenedName: string
}

/** What a compliance officer decided about a possible hit. */
export type HitStatus = 'pendiente' | 'descartada' | 'confirmada'

/** api.HitView */
export type Hit = {
  id: number
  operationId: string
  subject: 'persona' | 'beneficiario'
  list: string
  version: number | null
  entryId: string
  matchedName: string
  score: number
  reasons: string[]
  blocking: boolean
  status: HitStatus
  resolutionReason?: string
  resolvedBy?: string
  resolvedAt: string | null
  createdAt: string
}

/** api.PersonScreeningView */
export type PersonScreening = { locked: boolean; lists: ScreeningCheck[]; hits: Hit[] }

/** api.PendingHits */
export type PendingHits = { mode: Mode; count: number; data: (Hit & { propertyReference: string; personName: string })[] }

/** api.HitResolutionResult */
export type HitResolutionResult = { hit: Hit; operationStopped: boolean; aviso: { id: number; dueAt: string } | null }

/** api.ColumnMappingView: which column of an uploaded list holds what ('' for none). */
export type ColumnMapping = {
  nameColumn: string
  givenNamesColumn: string
  surnamesColumn: string
  birthDateColumn: string
  aliasesColumn: string
  identifierColumn: string
  referenceColumn: string
}

/** api.ListPreview */
export type ListPreview = { fileName: string; columns: string[]; sample: string[][]; suggested: ColumnMapping }

/** api.ListUploadResult */
export type ListUploadResult = {
  listId: number
  name: string
  version: number
  created: boolean
  entries: number
  sha256: string
  rescreenQueued: boolean
}

/** api.ScreeningListView */
export type ScreeningList = {
  id: number
  name: string
  kind: 'un' | 'uif_upload'
  public: boolean
  versions: { version: number; importedAt: string; fileName: string; sha256: string; entries: number }[]
}
