import { useMutation, useQuery, queryOptions } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { verifyStatusList, type IssuerKey, type StatusList } from '../lib/sd-jwt'
import type { Schema } from '@/lib/api-types'

/** A credential as its holder sees it (POST /api/credentials, GET /api/credentials/{id}). */
export type HeldCredential = Schema<'CredentialResponse'>

/** POST /api/credentials: a new credential of the signed-in person (200 signed, 202 signing). */
export function issueCredential(): Promise<HeldCredential> {
  return apiRequest<HeldCredential>('POST', '/api/credentials', {})
}

/** GET /api/credentials/{id}. */
export function getCredential(id: number): Promise<HeldCredential> {
  return apiRequest<HeldCredential>('GET', `/api/credentials/${id}`)
}

/** GET /api/credentials: the person's signed credentials kept in the browser, newest first. */
export function useHeldCredentials() {
  return useQuery({
    queryKey: ['/api/credentials'],
    queryFn: () => apiRequest<HeldCredential[]>('GET', '/api/credentials'),
  })
}

/** Issues a credential, then follows it until the worker has signed it. */
export function useIssueCredential() {
  return useMutation({
    mutationFn: async () => {
      let held = await issueCredential()
      for (let i = 0; held.status === 'pending' && i < 20; i++) {
        await new Promise((r) => setTimeout(r, 1000))
        held = await getCredential(held.id)
      }
      return held
    },
  })
}

/** The issuer's metadata: its identifier and published keys (GET /.well-known/jwt-vc-issuer). */
export type IssuerMetadata = { issuer: string; jwks: { keys: IssuerKey[] } }

/** Fetches the issuer metadata; the service worker answers from its cache when offline. */
export async function fetchIssuerMetadata(): Promise<IssuerMetadata> {
  const res = await fetch('/.well-known/jwt-vc-issuer')
  if (!res.ok) throw new Error(`${res.status}`)
  return res.json()
}

export function issuerMetadataQueryOptions() {
  return queryOptions({ queryKey: ['/.well-known/jwt-vc-issuer'], queryFn: fetchIssuerMetadata, staleTime: 60_000 })
}

/** The issuer's keys and identifier, for the verifier page. */
export function useIssuerMetadata() {
  return useQuery(issuerMetadataQueryOptions())
}

/**
 * Fetches and checks the status list at uri (the credential's own). Network first: when offline
 * the service worker answers with the last list it kept, whose age the page shows.
 */
export async function fetchStatusList(uri: string, keys: IssuerKey[]): Promise<StatusList> {
  const res = await fetch(uri, { cache: 'no-cache' })
  if (!res.ok) throw new Error(`${res.status}`)
  return verifyStatusList(await res.text(), keys)
}
