import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

/** One row of the notice's retention table: what is kept and for how long. */
export type RetentionRow = {
  /** Stable key of the data class (e.g. 'provider_webhooks'). */
  key: string
  /** What is kept, as the notice names it. */
  data: string
  /** How long it is kept, already in words ('30 días'). */
  period: string
}

/** One purpose the service needs (finalidad necesaria): the person cannot refuse it and keep the service. */
export type PrimaryPurpose = {
  /** Short name, as the simplified notice lists it. */
  label: string
  /** The full notice's sentence. */
  description: string
}

/** The data protection authority a person may turn to (LFPDPPP 2025). */
export type Authority = {
  /** 'Secretaría Anticorrupción y Buen Gobierno'. */
  name: string
  /** Its website, where a person files a procedimiento de protección de derechos or a denuncia. */
  url: string
}

/** One secondary purpose the person can object to from Mi Perfil › Mis datos. */
export type SecondaryPurpose = {
  /** Stable key of the purpose (e.g. 'reminders'). */
  purpose: string
  /** Short name of the purpose. */
  label: string
  /** What the purpose does, in a sentence or two. */
  description: string
}

/**
 * GET /api/legal: the facts of the privacy notice and the terms. The version, the responsible
 * party and the tables live in the Go code only; the pages read them from here.
 */
export type LegalInfo = {
  /** Version of the notice and the terms, e.g. '2026-11-28'. */
  version: string
  /** Date the version takes effect, 'YYYY-MM-DD'. */
  date: string
  /** The responsible party's legal name. */
  legalName: string
  /** The responsible party's address. */
  legalAddress: string
  /** Where privacy requests (ARCO, revocation) go. */
  privacyEmail: string
  /** Where support and terms questions go. */
  supportEmail: string
  /** How long each class of data is kept. */
  retention: RetentionRow[]
  /** The necessary purposes, in the notice's order. */
  primaryPurposes: PrimaryPurpose[]
  /** The secondary (voluntary) purposes, which the person can refuse. */
  secondaryPurposes: SecondaryPurpose[]
  /** Where a person may complain about how we treat their data. */
  authority: Authority
}

/** Reads the legal facts (public, no session). */
export function getLegalInfo(): Promise<LegalInfo> {
  return apiRequest<LegalInfo>('GET', '/api/legal')
}

/** Query options owning the legal key. */
export const legalInfoQueryOptions = queryOptions({ queryKey: ['/api/legal'], queryFn: getLegalInfo })

/** The legal facts for the privacy notice and the terms. */
export function useLegalInfo() {
  return useQuery(legalInfoQueryOptions)
}
