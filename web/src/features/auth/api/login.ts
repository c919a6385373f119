import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { flowHeaders } from '@/lib/hosted-flow'
import type { Schema } from '@/lib/api-types'

/** POST /api/login payload: trimmed, empty values left out. */
export type LoginInput = Schema<'LoginRequest'>

/** What the sign-in screen reads from POST /api/login. */
export type LoginResponse = Schema<'LoginResponse'>

/** Sends a sign-in code by WhatsApp. */
export function login(input: LoginInput): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('POST', '/api/login', input, flowHeaders())
}

/** Mutation hook for login. */
export function useLogin() {
  return useMutation({ mutationFn: login })
}
