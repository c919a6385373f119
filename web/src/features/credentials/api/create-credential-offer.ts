import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { Schema } from '@/lib/api-types'

/** A credential offer for the person's wallet (POST /api/users/{id}/credential-offers). */
export type CredentialOfferCreated = Schema<'CredentialOfferCreated'>

/**
 * POST /api/users/{id}/credential-offers: a single-use offer valid 10 minutes (OpenID4VCI); the
 * 6-digit transaction code the wallet asks for goes to the person by WhatsApp (or e-mail).
 */
export function createCredentialOffer(userId: string): Promise<CredentialOfferCreated> {
  return apiRequest<CredentialOfferCreated>('POST', `/api/users/${encodeURIComponent(userId)}/credential-offers`)
}

/** Mutation hook for createCredentialOffer. */
export function useCreateCredentialOffer(userId: string) {
  return useMutation({ mutationFn: () => createCredentialOffer(userId) })
}
