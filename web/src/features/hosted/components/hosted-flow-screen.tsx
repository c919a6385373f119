import { useEffect, useState, type ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button, buttonClass } from '@/components/ui/button'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { serverMessage } from '@/lib/api-client'
import { formatDateMx } from '@/lib/format'
import { clearStoredUser } from '@/lib/session'
import { useAsyncAction } from '@/lib/use-async-action'
import {
  clearFlow,
  decide,
  finalStatuses,
  getFlowSession,
  openFlow,
  readFlow,
  sharedKeys,
  signOut,
  tellOpener,
  writeFlow,
  type HostedClaim,
  type HostedView,
} from '../api/hosted-flow'

// /conectar: a partner's verification, on our own origin. The drop-in opens it with the client
// secret in the fragment (never sent to a server log) and the publishable key in the query.

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; view: HostedView; token: string; mode: 'popup' | 'redirect'; openerConfirmed: boolean }

const endedText: Record<string, string> = {
  completed: 'Listo: compartiste tus datos.',
  declined: 'No compartiste nada.',
  expired: 'Esta solicitud de verificación expiró.',
  canceled: 'La plataforma canceló esta solicitud de verificación.',
}

function claimValue(c: HostedClaim): string {
  if (c.value === undefined || c.value === null || c.value === '') return c.key === 'validUntil' ? 'Sin vigencia' : '—'
  if (c.key === 'validUntil') return `${formatDateMx(String(c.value))} (hora de la Ciudad de México)`
  if (c.key === 'level') return `Nivel ${String(c.value)}`
  if (c.key === 'ageOver18') return c.value === true ? 'Sí' : 'No'
  if (c.key === 'birthdate') {
    // A calendar date as printed on the ID (AAAA-MM-DD): no time zone to convert.
    const [y, m, d] = String(c.value).split('-')
    return d && m && y ? `${d}/${m}/${y}` : String(c.value)
  }
  return String(c.value)
}

/** Why a claim of the ID is not shared. */
const unavailableText = 'No se compartirá: tu perfil no se validó con los datos de tu identificación, o tu identificación no lo incluye.'

/** Takes the client secret from the URL once, or resumes this tab's open flow. */
async function load(): Promise<State> {
  const secret = window.location.hash.slice(1)
  const query = new URLSearchParams(window.location.search)
  if (secret) {
    // Out of the address bar and history at once: the secret works only once anyway.
    window.history.replaceState(null, '', window.location.pathname)
    const popupVariant = query.get('mode') !== 'redirect'
    const mode = popupVariant && window.opener ? 'popup' : 'redirect'
    let openerOrigin: string | undefined
    try {
      openerOrigin = document.referrer ? new URL(document.referrer).origin : undefined
    } catch {
      openerOrigin = undefined
    }
    const opened = await openFlow({ clientSecret: secret, publishableKey: query.get('pk') ?? '', openerOrigin })
    // The opener is confirmed when the browser named it (the server checked it is the platform's
    // origin) and, in the popup variant, the popup still has it: a page that hides its referrer
    // or opened us without an opener cannot be told apart from another site.
    const openerConfirmed = opened.openerConfirmed && (!popupVariant || !!window.opener)
    writeFlow({ token: opened.flowToken, mode, openerConfirmed })
    return { kind: 'ready', view: opened.session, token: opened.flowToken, mode, openerConfirmed }
  }
  const flow = readFlow()
  if (!flow) {
    return { kind: 'error', message: 'No hay una verificación abierta en esta ventana. Vuelve a la página de la plataforma e inicia de nuevo.' }
  }
  return {
    kind: 'ready',
    view: await getFlowSession(flow.token),
    token: flow.token,
    mode: flow.mode,
    openerConfirmed: flow.openerConfirmed === true,
  }
}

/** Sends the person back to the partner once the session ended. */
function finish(view: HostedView, mode: 'popup' | 'redirect', redirectUrl?: string) {
  clearFlow()
  if (mode === 'popup' && tellOpener(view, view.partnerOrigin)) {
    window.setTimeout(() => window.close(), 1500)
    return
  }
  const back = redirectUrl ?? view.returnUrl
  if (back) window.setTimeout(() => window.location.assign(back), 1500)
}

/** What the declaration step (amlProfile) gets from the screen. */
export type DeclarationStepProps = {
  userId: string
  partnerName: string
  confirmed?: number
  onConfirmed: (version: number | undefined) => void
}

/**
 * The hosted flow's one screen; notice is the simplified privacy notice shown while the person
 * decides; declarationStep draws the know-your-client declaration a platform may ask for.
 */
export function HostedFlowScreen({ notice, declarationStep }: { notice?: ReactNode; declarationStep?: (p: DeclarationStepProps) => ReactNode }) {
  const [state, setState] = useState<State>({ kind: 'loading' })
  const [amlVersion, setAmlVersion] = useState<number>()
  const { busy, error: problem, run } = useAsyncAction()

  useEffect(() => {
    let live = true
    load()
      .then((s) => {
        if (!live) return
        setState(s)
        if (s.kind === 'ready' && finalStatuses.has(s.view.status)) finish(s.view, s.mode)
      })
      .catch((err: unknown) => {
        if (live) setState({ kind: 'error', message: serverMessage(err, 'No pudimos abrir la verificación. Intenta de nuevo desde la página de la plataforma.') })
      })
    return () => {
      live = false
    }
  }, [])

  if (state.kind === 'loading') {
    return <p className="py-16 text-center" role="status">Cargando la verificación…</p>
  }
  if (state.kind === 'error') {
    return (
      <div className="mx-auto max-w-lg px-4 py-12">
        <Alert variant="destructive" title="No pudimos abrir la verificación">{state.message}</Alert>
      </div>
    )
  }
  const { view, token, mode, openerConfirmed } = state

  const answer = (share: boolean) =>
    run(
      async () => {
        const res = await decide(token, share, sharedKeys(view.claims), view.amlProfile ? amlVersion : undefined)
        const ended = { ...view, status: res.status }
        setState({ kind: 'ready', view: ended, token, mode, openerConfirmed })
        finish(ended, mode, res.redirectUrl)
      },
      (err) => serverMessage(err, 'No pudimos guardar tu respuesta. Intenta de nuevo.'),
    )

  // An account of the other mode signs out here and the flow goes on (sign in or register).
  const signOutHere = () =>
    run(
      async () => {
        await signOut()
        clearStoredUser()
        setState({ kind: 'ready', view: await getFlowSession(token), token, mode, openerConfirmed })
      },
      (err) => serverMessage(err, 'No pudimos cerrar tu sesión. Intenta de nuevo.'),
    )

  const ended = finalStatuses.has(view.status)
  const asksDeclaration = !!view.amlProfile && view.signedIn && !view.blocker && !!view.userId
  const declarationPending = !!view.amlProfile && amlVersion === undefined
  const levelName = view.requiredLevel >= 3 ? 'verificación biométrica (nivel 3)' : 'correo electrónico verificado (nivel 2)'
  return (
    <div className="mx-auto max-w-lg px-2 py-3 sm:px-4 sm:py-8">
      <Card>
        <CardBody className="gap-3 max-sm:px-4 max-sm:py-5 sm:gap-4">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle>Verificación para {view.partnerName}</CardTitle>
            {!view.livemode && <Badge variant="warning">Modo de prueba</Badge>}
          </div>
          <CardDescription>
            {view.partnerName} ({view.partnerOrigin}) te pide validar tu identidad con Perfil Seguro. Requiere {levelName}.
          </CardDescription>
          {view.disconnected ? (
            <Alert variant="warning" title={`${view.partnerName} ya no está conectada con Perfil Seguro`}>
              {view.blocker}
            </Alert>
          ) : ended ? (
            <Alert variant={view.status === 'completed' ? 'success' : 'info'} title={endedText[view.status]}>
              {mode === 'popup'
                ? 'Puedes cerrar esta ventana.'
                : view.returnUrl
                  ? `Te llevamos de regreso a ${view.partnerName}.`
                  : `Ya puedes volver a ${view.partnerName} (${view.partnerOrigin}).`}
            </Alert>
          ) : (
            <>
              {!view.signedIn && (
                <div className="flex flex-wrap gap-2">
                  <Link to="/login" className={buttonClass()}>Iniciar Sesión</Link>
                  <Link to="/register" className={buttonClass('outline')}>Registrarse</Link>
                </div>
              )}
              {view.signedIn && view.blocker && (
                <Alert variant="warning" title="Antes de compartir">
                  <p>{view.blocker}</p>
                  {view.signOutToContinue ? (
                    <Button variant="outline" size="sm" className="mt-3" disabled={busy} onClick={() => void signOutHere()}>
                      Cerrar sesión
                    </Button>
                  ) : (
                    <>
                      <Link to="/profile" className="link">Ir a Mi Perfil</Link>
                      <span> — al terminar, vuelve a esta ventana.</span>
                    </>
                  )}
                </Alert>
              )}
              {asksDeclaration &&
                declarationStep?.({ userId: String(view.userId), partnerName: view.partnerName, confirmed: amlVersion, onConfirmed: setAmlVersion })}
              <section aria-labelledby="compartir">
                <h3 id="compartir" className="font-semibold">Compartir con {view.partnerName}:</h3>
                <ul className="mt-2 list-disc pl-6">
                  {view.claims.map((c) => (
                    <li key={c.key} data-claim={c.key}>
                      {c.unavailable ? <span className="text-base-content/60 line-through">{c.label}</span> : c.label}
                      {view.signedIn && !view.blocker && !c.unavailable && <span className="text-base-content/70">: {claimValue(c)}</span>}
                      {c.unavailable && <span className="block text-sm text-base-content/70">{unavailableText}</span>}
                    </li>
                  ))}
                  {view.amlProfile && (
                    <li data-claim="amlDeclaration">
                      Tu declaración de conocimiento del cliente (ocupación, domicilio, RFC, beneficiario controlador y cargo público)
                      {amlVersion !== undefined && <span className="text-base-content/70">: versión {amlVersion}, firmada</span>}
                      {asksDeclaration && amlVersion === undefined && (
                        <span className="block text-sm text-base-content/70">Fírmala o confirma que sigue siendo cierta para poder compartir.</span>
                      )}
                    </li>
                  )}
                </ul>
                <p className="mt-2 text-sm text-base-content/70">Solo esto, y solo si eliges compartir. Puedes retirar el acceso después desde Mi Perfil.</p>
              </section>
              {!openerConfirmed && <UnconfirmedOpener view={view} />}
              {problem && <Alert variant="destructive">{problem}</Alert>}
              <div className="flex flex-wrap gap-2">
                <Button disabled={busy || !view.signedIn || !!view.blocker || declarationPending} onClick={() => answer(true)}>
                  Compartir
                </Button>
                <Button variant="outline" disabled={busy} onClick={() => answer(false)}>
                  No compartir
                </Button>
              </div>
              {notice}
            </>
          )}
        </CardBody>
      </Card>
    </div>
  )
}

/** The platform's host, as a person reads a web address (its origin without the scheme). */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host
  } catch {
    return origin
  }
}

/**
 * Shown before "Compartir" when we could not confirm that the platform's own page opened this
 * flow (its page hides the referrer, or a link reached the person some other way): the person
 * checks the name and the domain themselves.
 */
function UnconfirmedOpener({ view }: { view: HostedView }) {
  return (
    <Alert variant="warning" title="Comprueba quién te pide tus datos">
      <p>No pudimos confirmar qué página abrió esta verificación. Comparte solo si vienes de:</p>
      <p className="my-1 text-base">
        <strong>{view.partnerName}</strong> — <strong>{hostOf(view.partnerOrigin)}</strong>
      </p>
      <p>Si no la reconoces o no la iniciaste tú, elige «No compartir».</p>
    </Alert>
  )
}
