import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { serverMessage } from '@/lib/api-client'

/** A console read that failed: what could not load, the server's message (or fallback) and 'Reintentar'. */
export function QueryErrorAlert({
  title,
  query,
  fallback = 'Intenta de nuevo.',
}: {
  title: string
  query: { error: unknown; refetch: () => unknown }
  fallback?: string
}) {
  return (
    <Alert variant="destructive" title={title}>
      <p>{serverMessage(query.error, fallback)}</p>
      <Button variant="outline" size="sm" className="mt-3" onClick={() => query.refetch()}>
        Reintentar
      </Button>
    </Alert>
  )
}
