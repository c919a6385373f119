import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Webhook } from '../types'

// The platform's webhook: its URL and the rotation of its signing secret.

/** Query options owning the webhook. */
export const webhookQueryOptions = queryOptions({
  queryKey: ['partner-console', 'webhook'],
  queryFn: () => apiRequest<Webhook>('GET', '/api/socios/webhook'),
})

/** The webhook (never its secret). */
export function useWebhook() {
  return useQuery(webhookQueryOptions)
}

/** Sets the URL (PUT /api/socios/webhook) or rotates the secret; answers carry a new secret once. */
export function useWebhookMutations() {
  const client = useQueryClient()
  const onSuccess = (w: Webhook) => {
    const { secret: _secret, message: _message, ...shown } = w
    client.setQueryData(webhookQueryOptions.queryKey, shown)
  }
  return {
    setUrl: useMutation({ mutationFn: (url: string) => apiRequest<Webhook>('PUT', '/api/socios/webhook', { url }), onSuccess }),
    rotate: useMutation({ mutationFn: () => apiRequest<Webhook>('POST', '/api/socios/webhook/rotate'), onSuccess }),
  }
}
