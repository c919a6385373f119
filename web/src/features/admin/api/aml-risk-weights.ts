import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { useRefetchingMutation } from '@/lib/refetching-mutation'

// The risk weights of LFPIORPI operations (api/admin_aml_risk.go): every role reads them,
// administradores change one row at a time with its source.

/** api.AMLRiskWeightJSON: a factor's points or a level's cut-off. */
export type AmlRiskWeight = {
  key: string
  keyText: string
  kind: 'factor' | 'corte'
  weight: number
  source: string
  updatedBy?: number
  updatedAt: string
}

/** What PUT /api/admin/aml/risk-weights takes. */
export type AmlRiskWeightInput = { key: string; weight: number; source: string }

export const amlRiskWeightsQueryOptions = queryOptions({
  queryKey: ['admin', 'aml', 'risk-weights'],
  queryFn: () => apiRequest<AmlRiskWeight[]>('GET', '/api/admin/aml/risk-weights'),
})

export function useAmlRiskWeights() {
  return useQuery(amlRiskWeightsQueryOptions)
}

export function usePutAmlRiskWeight() {
  return useRefetchingMutation(
    (input: AmlRiskWeightInput) => apiRequest<AmlRiskWeight>('PUT', '/api/admin/aml/risk-weights', input),
    amlRiskWeightsQueryOptions.queryKey,
  )
}
