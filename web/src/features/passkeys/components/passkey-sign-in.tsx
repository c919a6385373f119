import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router-dom'
import { KeyRound } from 'lucide-react'
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, WebAuthnAbortService } from '@simplewebauthn/browser'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'
import { readFlow } from '@/lib/hosted-flow'
import { announceLogin, removeStorage, storageKeys, writeStorage } from '@/lib/storage'
import { isPasskeyCancelled } from '@/lib/passkey-errors'
import {
  getSignInOptions,
  signInWithPasskey,
  useSignInWithPasskey,
  type PasskeyOptions,
  type PasskeySignInResponse,
} from '../api/sign-in-with-passkey'
import { passkeyErrorMessage } from '../lib/passkey-errors'

/** The signed-in user id of a sign-in answer. */
function signedInUserId(res: PasskeySignInResponse): string | null {
  const id = res.userId ?? res.data?.userId
  return id === undefined || id === null ? null : String(id)
}

/**
 * "Entrar con llave de acceso" on the sign-in page, and the same passkeys offered in the e-mail
 * field's suggestions (conditional UI) where the browser can. Success stores the user as a code
 * sign-in does and goes to /profile; any failure leaves the code sign-in as it was.
 */
export function PasskeySignIn() {
  const navigate = useNavigate()
  const { toast } = useToast()
  const signIn = useSignInWithPasskey()
  const finished = useRef(false)

  const onSignedIn = (res: PasskeySignInResponse) => {
    const userId = signedInUserId(res)
    if (!userId) return
    finished.current = true
    writeStorage(storageKeys.userId, userId)
    removeStorage(storageKeys.pendingUserId, storageKeys.loginEmail, storageKeys.loginPhone)
    announceLogin()
    toast({ title: 'Sesión iniciada', description: 'Entraste con tu llave de acceso.' })
    navigate(readFlow() ? '/conectar' : '/profile') // back to a platform's open verification, if any
  }

  const onFailed = (err: unknown) => {
    toast({
      title: isPasskeyCancelled(err) ? 'Llave de acceso cancelada' : 'No pudiste entrar con tu llave',
      description: passkeyErrorMessage(err, 'No pudimos verificar tu llave de acceso. Entra con tu código.'),
      variant: isPasskeyCancelled(err) ? undefined : 'destructive',
    })
  }

  // Conditional UI: the browser lists the person's passkeys among the e-mail field's suggestions.
  useEffect(() => {
    let active = true
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || !active) return
      // Offering passkeys among the suggestions is the page's own idea: when the server cannot
      // (passkeys off on this host, or the service unavailable), the person asked for nothing, so
      // nothing is said and the code sign-in stays as it is.
      let options: PasskeyOptions
      try {
        options = await getSignInOptions()
      } catch {
        return
      }
      if (!active) return
      try {
        const res = await signInWithPasskey({ autofill: true, options })
        if (active) onSignedIn(res)
      } catch (err) {
        // The autofill request is cancelled whenever the button starts its own: say nothing then.
        if (active && !isPasskeyCancelled(err)) onFailed(err)
      }
    })()
    return () => {
      active = false
      if (!finished.current) WebAuthnAbortService.cancelCeremony()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  if (!browserSupportsWebAuthn()) return null
  return (
    <Button
      variant="outline"
      className="w-full"
      disabled={signIn.isPending}
      onClick={() => signIn.mutate(undefined, { onSuccess: onSignedIn, onError: onFailed })}
    >
      {signIn.isPending ? <span className="loading loading-spinner loading-sm" /> : <KeyRound className="size-4" aria-hidden />}
      Entrar con llave de acceso
    </Button>
  )
}
