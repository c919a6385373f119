// Browser-safe entry point: the drop-in loader and the shared types. The webhook helpers, which
// need node:crypto, are in '@perfilseguro/widget/node'.
export { loadPerfilSeguro } from './loader.js'
export type { LoadOptions } from './loader.js'
export type {
  PerfilSeguroClient,
  PerfilSeguroOptions,
  PerfilSeguroStatic,
  VerificationResult,
  VerificationResultStatus,
  NewSession,
  SessionCreated,
  AccessRevokedEvent,
  ProfileDeletedEvent,
  SessionEvent,
  SessionList,
  SessionRef,
  SharedClaims,
  ClaimName,
  DocumentClaimName,
  SharedReason,
  VerificationSession,
  VerificationStatus,
  WebhookEvent,
} from './types.js'
