import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'

// Local types until the server's schema is regenerated into lib/api-schema.d.ts
// (api/admin_aml.go: UMAJSON, UMARequest, AMLThresholdJSON, AMLThresholdRequest).

/** One year's UMA as INEGI published it; the daily value in pesos as a string ("113.14"). */
export type UmaValue = {
  year: number
  dailyValue: string
  /** YYYY-MM-DD: 1 February of the year, when INEGI's value takes effect. */
  validFrom: string
  source: string
  updatedBy?: number
  updatedAt: string
}

/** What PUT /api/admin/aml/uma takes. */
export type UmaInput = { year: number; dailyValue: string; validFrom?: string; source: string }

/** The real-estate activities of the LFPIORPI (aml.Activity). */
export type AmlActivity = 'compraventa' | 'intermediacion' | 'desarrollo' | 'arrendamiento'

/** One activity's thresholds in UMA from a date, with their meaning in pesos today. */
export type AmlThreshold = {
  activity: AmlActivity
  activityText: string
  validFrom: string
  /** 0: always. */
  identificationUma: number
  identificationStrict: boolean
  avisoUma: number
  avisoStrict: boolean
  monthly: boolean
  source: string
  umaYear?: number
  identificationPesos?: string
  avisoPesos?: string
  updatedBy?: number
  updatedAt: string
}

/** What PUT /api/admin/aml/thresholds takes. */
export type AmlThresholdInput = Pick<
  AmlThreshold,
  'activity' | 'validFrom' | 'identificationUma' | 'identificationStrict' | 'avisoUma' | 'avisoStrict' | 'monthly' | 'source'
>

/** GET /api/admin/aml/uma */
export function getUmaValues(): Promise<UmaValue[]> {
  return apiRequest<UmaValue[]>('GET', '/api/admin/aml/uma')
}

/** GET /api/admin/aml/thresholds */
export function getAmlThresholds(): Promise<AmlThreshold[]> {
  return apiRequest<AmlThreshold[]>('GET', '/api/admin/aml/thresholds')
}

/** Both tables live under one key: a new UMA changes the thresholds' pesos too. */
const amlKey = ['admin', 'aml'] as const

/** Query options for the UMA table. */
export const umaQueryOptions = queryOptions({ queryKey: [...amlKey, 'uma'], queryFn: getUmaValues })

/** Query options for the thresholds table. */
export const amlThresholdsQueryOptions = queryOptions({ queryKey: [...amlKey, 'thresholds'], queryFn: getAmlThresholds })

/** The UMA by year, newest first. */
export function useUmaValues() {
  return useQuery(umaQueryOptions)
}

/** The thresholds by activity. */
export function useAmlThresholds() {
  return useQuery(amlThresholdsQueryOptions)
}

/** PUT /api/admin/aml/uma: a year's UMA, created or corrected. */
export function usePutUma() {
  return useRefetchingMutation((v: UmaInput) => apiRequest<UmaValue>('PUT', '/api/admin/aml/uma', v), amlKey)
}

/** PUT /api/admin/aml/thresholds: an activity's thresholds from a date, created or corrected. */
export function usePutAmlThreshold() {
  return useRefetchingMutation((v: AmlThresholdInput) => apiRequest<AmlThreshold>('PUT', '/api/admin/aml/thresholds', v), amlKey)
}
