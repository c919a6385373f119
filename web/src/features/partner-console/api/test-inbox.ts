import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { TestInbox } from '../types'

/** How often the open inbox looks for new messages: a developer waits for a code. */
export const TEST_INBOX_POLL_MS = 3000

/** Query options owning the platform's test inbox. */
export const testInboxQueryOptions = queryOptions({
  queryKey: ['partner-console', 'test-inbox'],
  queryFn: () => apiRequest<TestInbox>('GET', '/api/socios/test-inbox'),
  refetchInterval: TEST_INBOX_POLL_MS,
})

/** The newest messages to the platform's test people. */
export function useTestInbox() {
  return useQuery(testInboxQueryOptions)
}
