import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { serverMessage } from '@/lib/api-client'
import { useConsoleMe } from '../api/get-console-me'
import { ConsolePanel } from './console-panel'
import { PartnerSignInScreen } from './partner-sign-in-screen'

/** /socios: the sign-in while nobody is signed in to the console, the console once someone is. */
export function PartnerConsoleScreen() {
  const me = useConsoleMe()
  if (me.isPending) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <span className="loading loading-spinner loading-lg text-primary" role="status" aria-label="Cargando" />
      </div>
    )
  }
  if (me.isError) {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <Alert variant="destructive" title="No pudimos abrir la consola">
          <p>{serverMessage(me.error, 'Revisa tu conexión e intenta de nuevo.')}</p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => me.refetch()}>
            Reintentar
          </Button>
        </Alert>
      </div>
    )
  }
  if (!me.data) return <PartnerSignInScreen />
  return <ConsolePanel me={me.data} />
}
