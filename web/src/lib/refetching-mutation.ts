import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'

/** A mutation that, once it succeeds, refetches the queries under queryKey: the reads it changed. */
export function useRefetchingMutation<TData, TVariables>(mutationFn: (variables: TVariables) => Promise<TData>, queryKey: QueryKey) {
  const client = useQueryClient()
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey }) })
}
