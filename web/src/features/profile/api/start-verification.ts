import { apiRequest } from '@/lib/api-client'
import { toApiUserId } from '@/lib/user-id'

/** POST /api/start-verification answer. */
export type StartVerificationResponse = { verificationUrl?: string; error?: string; message?: string }

/** Asks the server for the biometric provider's hosted URL. */
export function startVerification(userId: string): Promise<StartVerificationResponse> {
  return apiRequest<StartVerificationResponse>('POST', '/api/start-verification', { userId: toApiUserId(userId) })
}
