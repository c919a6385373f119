import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { flowHeaders } from '@/lib/hosted-flow'
import type { Schema } from '@/lib/api-types'

/** POST /api/register payload; phoneNumber already normalized to +52. */
export type RegisterInput = Schema<'RegisterRequest'>

/** What the registration screen reads from POST /api/register. */
export type RegisterResponse = Schema<'RegisterResponse'>

/** Creates the user and sends the first code. */
export function registerUser(input: RegisterInput): Promise<RegisterResponse> {
  return apiRequest<RegisterResponse>('POST', '/api/register', input, flowHeaders())
}

/** Mutation hook for registerUser. */
export function useRegisterUser() {
  return useMutation({ mutationFn: registerUser })
}
