import { useConsoleMe } from '../api/get-console-me'
import { ConsolePanel } from './console-panel'
import { PartnerSignInScreen } from './partner-sign-in-screen'
import { QueryErrorAlert } from './query-error'

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
        <QueryErrorAlert title="No pudimos abrir la consola" query={me} fallback="Revisa tu conexión e intenta de nuevo." />
      </div>
    )
  }
  if (!me.data) return <PartnerSignInScreen />
  return <ConsolePanel me={me.data} />
}
