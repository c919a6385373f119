import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'
import type { Delivery, DeliveryPage } from '../types'

// The webhook's delivery log, in pages of 25 (newest first), and resends.

/** Query options owning the delivery log. */
export const deliveriesQueryOptions = infiniteQueryOptions({
  queryKey: ['partner-console', 'deliveries'],
  queryFn: ({ pageParam }) => apiRequest<DeliveryPage>('GET', `/api/socios/deliveries${pageParam ? `?before=${pageParam}` : ''}`),
  initialPageParam: 0,
  getNextPageParam: (last: DeliveryPage) => (last.hasMore ? last.data[last.data.length - 1]?.id : undefined),
})

/** The delivery log. */
export function useDeliveries() {
  return useInfiniteQuery(deliveriesQueryOptions)
}

/** Sends a notification again now (POST /api/socios/deliveries/{id}/resend), then refetches the log. */
export function useResend() {
  return useRefetchingMutation(
    (id: number) => apiRequest<Delivery>('POST', `/api/socios/deliveries/${id}/resend`),
    deliveriesQueryOptions.queryKey,
  )
}
