import { useState } from 'react'
import { BadgeCheck, Ban, Clock, QrCode, ShieldCheck } from 'lucide-react'
import { cn } from '@/lib/cn'
import { PRODUCT_NAME } from '@/lib/config'
import { WALLET_LOCKED_HINT, WalletButtons } from './wallet-buttons'

/** Props of DigitalIdCard (SPEC §2 'Digital ID card'). */
export type DigitalIdCardProps = {
  name: string
  id: string
  verified: boolean
  expirationDate?: Date | string | null
  /** Image URL of the QR; defaults to our server's /api/qr/{id}.png. */
  qrCode?: string | null
  /** Needed by the wallet buttons. */
  userId?: string
  /** A validation that ended says so instead of 'ID Validado' (DECISIONS.md). */
  ended?: 'Expirado' | 'Revocado' | null
  /** A partner's test account gets no Wallet pass: the buttons give way to why. */
  testAccount?: boolean
  className?: string
}

/** 'Validado hasta: {date es-MX}' or 'Pendiente'. */
export function expiryLabel(expirationDate?: Date | string | null): string {
  if (!expirationDate) return 'Pendiente'
  const date = expirationDate instanceof Date ? expirationDate : new Date(expirationDate)
  if (Number.isNaN(date.getTime())) return 'Pendiente'
  return `Validado hasta: ${date.toLocaleDateString('es-MX')}`
}

/** The URL of our own QR image for a profile id (DECISIONS.md: never an external QR service). */
export function qrImageUrl(id: string): string {
  return `/api/qr/${encodeURIComponent(id)}.png`
}

/** The digital pass: name, profile ID, status, expiry, QR and wallet buttons. */
export function DigitalIdCard({ name, id, verified, expirationDate, qrCode, userId, ended, testAccount, className }: DigitalIdCardProps) {
  const [qrFailed, setQrFailed] = useState(false)
  const qrSrc = qrCode || qrImageUrl(id)

  return (
    <div className={cn('w-full max-w-md space-y-4', className)} data-testid="digital-id-card">
      <div className="relative overflow-hidden rounded-2xl border border-base-300 bg-base-100 shadow-xl">
        <div className="h-2 bg-gradient-to-r from-primary via-secondary to-primary" />
        <div className="pointer-events-none absolute -bottom-20 -right-20 size-48 rounded-full bg-primary/5" />
        <div className="relative p-6">
          <div className="flex items-center justify-between">
            <div className="flex items-center gap-2 font-bold text-primary">
              <ShieldCheck className="size-6" aria-hidden />
              <span>{PRODUCT_NAME}</span>
            </div>
            <span className="text-xs uppercase tracking-widest text-base-content/70">Identidad digital</span>
          </div>

          <div className="mt-6 flex items-end justify-between gap-4">
            <div className="min-w-0 space-y-3">
              <div>
                <p className="text-xs uppercase tracking-wide text-base-content/70">Nombre</p>
                <p className="text-lg font-semibold leading-tight break-words">{name}</p>
              </div>
              <div>
                <p className="text-xs uppercase tracking-wide text-base-content/70">ID de perfil</p>
                <p className="font-mono text-sm">{id}</p>
              </div>
              {ended ? (
                <p className="flex items-center gap-1.5 text-sm font-semibold text-error" data-testid="card-status">
                  <Ban className="size-4" aria-hidden />
                  {ended}
                </p>
              ) : (
                <p
                  className={cn(
                    'flex items-center gap-1.5 text-sm font-semibold',
                    verified ? 'text-primary' : 'text-slate-500',
                  )}
                  data-testid="card-status"
                >
                  {verified ? <BadgeCheck className="size-4" aria-hidden /> : <Clock className="size-4" aria-hidden />}
                  {verified ? 'ID Validado' : 'Pendiente de validación'}
                </p>
              )}
              {/* Unvalidated, the status already says pending: no second 'Pendiente' under it (issue 38). */}
              {(verified || ended || expirationDate) && <p className="text-xs text-base-content/70">{expiryLabel(expirationDate)}</p>}
            </div>
            <div className="shrink-0 rounded-xl bg-white p-2 shadow-inner ring-1 ring-base-300">
              {qrFailed ? (
                <div className="flex size-[104px] items-center justify-center text-slate-400" role="img" aria-label={`Código QR de ${id}`}>
                  <QrCode className="size-16" aria-hidden />
                </div>
              ) : (
                <img
                  src={qrSrc}
                  width={150}
                  height={150}
                  className="size-[104px]"
                  alt={`Código QR de ${id}`}
                  onError={() => setQrFailed(true)}
                />
              )}
            </div>
          </div>
        </div>
      </div>
      {testAccount ? (
        <p className="text-sm text-base-content/70" data-testid="test-account-no-wallet">
          Las cuentas de prueba no reciben pases de Apple Wallet ni de Google Wallet.
        </p>
      ) : (
        <WalletButtons userId={userId} name={name} lockedHint={verified || ended ? undefined : WALLET_LOCKED_HINT} />
      )}
    </div>
  )
}
