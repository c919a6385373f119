// Node entry point ('@perfilseguro/widget/node'): checking the notifications Perfil Seguro
// sends to a partner's webhook URL.
export { constructEvent, DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, verifyWebhook, WebhookSignatureError } from './webhook.js'
export type { VerifyWebhookOptions } from './webhook.js'
export type {
  AccessRevokedEvent,
  ProfileDeletedEvent,
  SessionEvent,
  SessionRef,
  SharedClaims,
  ClaimName,
  DocumentClaimName,
  SharedReason,
  VerificationSession,
  VerificationStatus,
  WebhookEvent,
} from './types.js'
