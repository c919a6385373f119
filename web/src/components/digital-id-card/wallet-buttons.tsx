import { useState, type ReactNode } from 'react'
import { Wallet } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { addToAppleWallet, addToGoogleWallet, type WalletOutcome } from './wallet-api'

/** Props of WalletButtons. */
export type WalletButtonsProps = {
  userId?: string
  name: string
  /** Set while there is no pass to add (levels 1–2): the buttons stay disabled and this says why. */
  lockedHint?: string
}

/** Why the pass buttons wait, before the biometric check. */
export const WALLET_LOCKED_HINT = 'Completa tu verificación biométrica para agregar tu pase a Apple Wallet o Google Wallet'

type Which = 'apple' | 'google'

/** The two buttons, in order: each wallet's name, its colours and its mark. */
const WALLETS: { which: Which; label: string; className: string; icon: ReactNode }[] = [
  {
    which: 'apple',
    label: 'Apple Wallet',
    className: 'btn border-0 bg-neutral-950 text-white hover:bg-neutral-800 disabled:bg-neutral-950 disabled:text-white disabled:opacity-40',
    icon: <Wallet className="size-4" aria-hidden />,
  },
  { which: 'google', label: 'Google Wallet', className: 'btn border border-base-300 bg-base-100 hover:bg-base-200', icon: <GoogleMark /> },
]

/** Apple Wallet and Google Wallet buttons with their outcome shown beneath. */
export function WalletButtons({ userId, name, lockedHint }: WalletButtonsProps) {
  const [busy, setBusy] = useState<Which | null>(null)
  const [outcome, setOutcome] = useState<WalletOutcome | null>(null)

  const run = async (which: Which) => {
    setBusy(which)
    setOutcome(null)
    try {
      setOutcome(which === 'apple' ? await addToAppleWallet(userId, name) : await addToGoogleWallet(userId))
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="space-y-3">
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {WALLETS.map(({ which, label, className, icon }) => (
          <button key={which} type="button" className={className} onClick={() => run(which)} disabled={busy !== null || !!lockedHint} title={lockedHint}>
            {busy === which ? <span className="loading loading-spinner loading-sm" /> : icon}
            {label}
          </button>
        ))}
      </div>
      {lockedHint && (
        <p className="text-sm text-base-content/70" data-testid="wallet-locked">
          {lockedHint}
        </p>
      )}
      {outcome?.kind === 'error' && <Alert variant="destructive">{outcome.message}</Alert>}
      {outcome?.kind === 'copy-url' && (
        <Alert variant="info" title="Tu navegador bloqueó la ventana emergente">
          <p>Copia este enlace y ábrelo para agregar tu pase a Google Wallet:</p>
          <input
            readOnly
            className="input input-sm mt-2 w-full font-mono"
            value={outcome.url}
            onFocus={(e) => e.currentTarget.select()}
            aria-label="Enlace de Google Wallet"
          />
        </Alert>
      )}
    </div>
  )
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" className="size-4" aria-hidden>
      <path fill="#4285F4" d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1z" />
      <path fill="#34A853" d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z" />
      <path fill="#FBBC05" d="M5.84 14.09A6.6 6.6 0 0 1 5.5 12c0-.73.13-1.43.34-2.09V7.07H2.18A11 11 0 0 0 1 12c0 1.78.43 3.45 1.18 4.93l3.66-2.84z" />
      <path fill="#EA4335" d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15A10.56 10.56 0 0 0 12 1 11 11 0 0 0 2.18 7.07l3.66 2.84C6.71 7.31 9.14 5.38 12 5.38z" />
    </svg>
  )
}
