import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** POST /api/verify-code payload: the session token (registration) or the user id (sign-in). */
export type VerifyCodeInput = Schema<'VerifyCodeRequest'> | { userId: number | string; code: string }

/** What the screens read from POST /api/verify-code. */
export type VerifyCodeResponse = Schema<'VerifyCodeResponse'>

/** Checks a one-time code; success starts the server session. */
export function verifyCode(input: VerifyCodeInput): Promise<VerifyCodeResponse> {
  return apiRequest<VerifyCodeResponse>('POST', '/api/verify-code', input)
}

/** The signed-in user id in a verify-code answer, if any. */
export function verifiedUserId(res: VerifyCodeResponse | null | undefined): string | null {
  const id = res?.userId ?? res?.data?.userId
  return id === undefined || id === null ? null : String(id)
}

/** Mutation hook for verifyCode. */
export function useVerifyCode() {
  return useMutation({ mutationFn: verifyCode })
}
