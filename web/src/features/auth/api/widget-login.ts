import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** POST /api/widget/login payload. */
export type WidgetLoginInput = Schema<'LoginRequest'>

/** What the screens read from POST /api/widget/login. */
export type WidgetLoginResponse = Schema<'WidgetLoginResponse'>

/** Requests a new code for a known person (registration conflict path). */
export function widgetLogin(input: WidgetLoginInput): Promise<WidgetLoginResponse> {
  return apiRequest<WidgetLoginResponse>('POST', '/api/widget/login', input)
}

/** Mutation hook for widgetLogin. */
export function useWidgetLogin() {
  return useMutation({ mutationFn: widgetLogin })
}
