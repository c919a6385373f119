import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** One lookup of the person's profile: when and through which channel; never who (no IP is kept for them). */
export type Consultation = {
  at: string
  channel: 'public_page' | 'partner_api'
  /** The partner that looked, for lookups through a partner's API. */
  partnerName: string | null
}

/** GET /api/users/{id}/consultations answer: a page, and the cursor of the next (older) one. */
export type ConsultationsPage = { items: Consultation[]; nextCursor: string | null }

/** Lookups per page. */
export const CONSULTATIONS_PAGE_SIZE = 20

/** Reads a page of lookups, newest first, older than before when given. */
export function getConsultations(userId: string, before: string | null): Promise<ConsultationsPage> {
  const params = new URLSearchParams({ limit: String(CONSULTATIONS_PAGE_SIZE) })
  if (before) params.set('before', before)
  return apiRequest<ConsultationsPage>('GET', `/api/users/${encodeURIComponent(userId)}/consultations?${params}`)
}

/** Infinite query options owning a person's lookups key. */
export function consultationsQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: ['/api/users', userId, 'consultations'],
    queryFn: ({ pageParam }) => getConsultations(userId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}

/** The lookups of a person's profile, a page at a time. */
export function useConsultations(userId: string) {
  return useInfiniteQuery(consultationsQueryOptions(userId))
}
