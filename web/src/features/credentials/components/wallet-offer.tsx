import { ExternalLink, Wallet } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClass } from '@/components/ui/button'
import { serverMessage } from '@/lib/api-client'
import { useCreateCredentialOffer, type CredentialOfferCreated } from '../api/create-credential-offer'

/** Whole minutes from now until iso, at least 1 (the offer says how long it still works). */
export function minutesLeft(iso: string, now = Date.now()): number {
  return Math.max(1, Math.round((new Date(iso).getTime() - now) / 60_000))
}

/** Where the transaction code went, as the note under the QR says it. */
function codeChannel(offer: CredentialOfferCreated): string {
  return offer.channel === 'email' ? 'a tu correo electrónico' : 'por WhatsApp'
}

/**
 * "Agregar a una billetera digital": an OpenID4VCI offer as a QR for a wallet on another
 * device and a link for one on this device. The wallet then asks for the 6-digit code sent to
 * the person; the offer works once, for 10 minutes.
 */
export function WalletOffer({ userId }: { userId: string }) {
  const offer = useCreateCredentialOffer(userId)
  const created = offer.data
  const minutes = created ? minutesLeft(created.expiresAt) : 0
  return (
    <section aria-labelledby="wallet-offer-title" className="space-y-3 rounded-box border border-base-300 p-3" data-testid="wallet-offer">
      <h3 id="wallet-offer-title" className="flex items-center gap-2 font-semibold">
        <Wallet className="size-4 text-primary" aria-hidden />
        Billetera digital
      </h3>
      <p className="text-sm text-base-content/70">
        Guarda tu credencial en una billetera compatible con OpenID4VCI y preséntala a quien la pida, sin compartir más de lo
        que elijas.
      </p>
      <Button variant={created ? 'outline' : 'default'} onClick={() => offer.mutate()} disabled={offer.isPending}>
        <Wallet className="size-4" aria-hidden />
        {offer.isPending ? 'Preparando la oferta…' : created ? 'Crear otra oferta' : 'Agregar a una billetera digital'}
      </Button>
      {offer.isError && (
        <Alert variant="destructive">
          {serverMessage(offer.error, 'No pudimos preparar la oferta para tu billetera. Intenta nuevamente.')}
        </Alert>
      )}
      {created && !offer.isPending && (
        <div className="space-y-3" data-testid="wallet-offer-ready">
          <img
            src={created.qrUrl}
            alt="Código QR para agregar tu credencial a una billetera digital"
            className="mx-auto size-64 rounded-box bg-white p-2"
          />
          <p className="text-center text-sm">Escanéalo con la billetera de tu teléfono.</p>
          <a className={buttonClass('ghost', 'default', 'w-full')} href={created.offerUri}>
            <ExternalLink className="size-4" aria-hidden />
            Abrir en la billetera de este dispositivo
          </a>
          <p className="text-sm font-medium">
            Válida por {minutes} {minutes === 1 ? 'minuto' : 'minutos'} y para una sola billetera.
          </p>
          <Alert variant="info">
            Tu billetera te pedirá el código de 6 dígitos que te enviamos {codeChannel(created)}. No lo compartas con nadie.
          </Alert>
        </div>
      )}
    </section>
  )
}
