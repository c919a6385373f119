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
  SessionEvent,
  SessionList,
  SharedClaims,
  VerificationSession,
  VerificationStatus,
  WebhookEvent,
} from './types.js'
