import { useState, type ReactNode } from 'react'
import QRCode from 'qrcode'
import { BadgeCheck, Copy, Download, Share2 } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { serverMessage } from '@/lib/api-client'
import { saveBlob } from '@/lib/save-file'
import { useHeldCredentials, useIssueCredential } from '../api/credentials'
import { parseSdJwt, present } from '../lib/sd-jwt'
import { WalletOffer } from './wallet-offer'

/** The claims a holder may choose to show, with what the checkbox says. */
export const shareableClaims = [
  { name: 'name', label: 'Nombre' },
  { name: 'validated_at', label: 'Fecha de validación' },
  { name: 'origin', label: 'Origen' },
  { name: 'scores', label: 'Puntajes biométricos' },
  // The identity document's data (issue 52): only in the credential of a profile certified by its ID.
  { name: 'given_name', label: 'Nombre(s) según tu identificación' },
  { name: 'family_name', label: 'Apellidos según tu identificación' },
  { name: 'birthdate', label: 'Fecha de nacimiento' },
  { name: 'age_equal_or_over', label: 'Que eres mayor de 18 años' },
  { name: 'nationalities', label: 'Nacionalidad' },
  { name: 'personal_administrative_number', label: 'CURP' },
] as const

/** The claims of shareableClaims a credential holds (a typed profile's has no document data). */
export function claimsHeld(credential: string): (typeof shareableClaims)[number][] {
  let names: Set<string>
  try {
    names = new Set(parseSdJwt(credential).disclosures.map((d) => d.name))
  } catch {
    return []
  }
  return shareableClaims.filter((c) => names.has(c.name))
}

/** A presentation's link to the verifier: in the fragment, so it never reaches a server. */
export function verifierLink(origin: string, presentation: string): string {
  return `${origin}/verify#vp=${presentation}`
}

/**
 * Mi Perfil's verifiable credential: the person gets it signed, downloads it, and shares a
 * presentation with only the claims they choose, as text, QR or link; or puts it in a wallet
 * app (OpenID4VCI) to present it to partners.
 */
export function CredentialCard({ profileId, userId, revoked = false }: { profileId: string; userId: string; revoked?: boolean }) {
  if (revoked) return <RevokedCredentialCard />
  return <HeldCredentialCard profileId={profileId} userId={userId} />
}

/** The card both states share: the titled frame, its icon greyed or in colour. */
function CredentialCardFrame({ iconClass, children }: { iconClass: string; children: ReactNode }) {
  return (
    <Card data-testid="credential-card">
      <CardBody className="space-y-3">
        <CardTitle>
          <BadgeCheck className={`size-5 ${iconClass}`} aria-hidden />
          Credencial verificable
        </CardTitle>
        {children}
      </CardBody>
    </Card>
  )
}

/** A revoked validation's credential: void, and no new one until a new validation (issue 38). */
function RevokedCredentialCard() {
  return (
    <CredentialCardFrame iconClass="text-base-content/50">
      <Alert variant="destructive" data-testid="credential-revoked">
        Revocada: tu credencial dejó de valer cuando Perfil Seguro revocó tu validación. Quien la compruebe verá que fue
        revocada.
      </Alert>
    </CredentialCardFrame>
  )
}

function HeldCredentialCard({ profileId, userId }: { profileId: string; userId: string }) {
  const issue = useIssueCredential()
  // One issued before (another sign-in, another device) is listed by the server, not offered anew.
  const listed = useHeldCredentials()
  const [chosen, setChosen] = useState<string[]>(['name'])
  const [shared, setShared] = useState<{ text: string; qr: string } | null>(null)
  const [copied, setCopied] = useState(false)
  const held = issue.data ?? listed.data?.[0]
  const credential = held?.status === 'ready' ? held.credential : undefined

  async function share() {
    if (!credential) return
    const text = present(credential, chosen)
    const link = verifierLink(window.location.origin, text)
    // SVG needs no canvas, and a data: image is allowed by the CSP (img-src 'self' data:).
    const svg = await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'L', margin: 1 })
    setShared({ text: link, qr: `data:image/svg+xml;base64,${btoa(svg)}` })
    setCopied(false)
  }

  return (
    <CredentialCardFrame iconClass="text-primary">
      <CardDescription>
        Una credencial firmada por Perfil Seguro que guardas tú. Quien la reciba puede comprobarla en su navegador,
        incluso sin conexión, y solo ve los datos que decidas compartir.
      </CardDescription>
      {!credential && !listed.isPending && (
        <Button onClick={() => issue.mutate()} disabled={issue.isPending}>
          {issue.isPending ? 'Firmando tu credencial…' : 'Obtener mi credencial'}
        </Button>
      )}
      {issue.isError && (
        <Alert variant="destructive">{serverMessage(issue.error, 'No pudimos emitir tu credencial. Intenta nuevamente.')}</Alert>
      )}
      {held && held.status !== 'ready' && <Alert variant="warning">{held.message}</Alert>}
      {credential && (
        <>
          <p className="text-sm">
            Vigente hasta el {new Date(held!.expiresAt).toLocaleDateString('es-MX', { timeZone: 'America/Mexico_City' })}.
          </p>
          <Button variant="outline" onClick={() => saveBlob(new Blob([credential], { type: 'application/dc+sd-jwt' }), `${profileId}.sd-jwt`)}>
            <Download className="size-4" aria-hidden />
            Descargar credencial
          </Button>
          <fieldset className="fieldset rounded-box border border-base-300 p-3">
            <legend className="fieldset-legend">Compartir</legend>
            <p className="text-sm text-base-content/70">
              Tu ID de perfil y tu nivel de verificación siempre se muestran. Elige qué más compartir:
            </p>
            {claimsHeld(credential).map((c) => (
              <label key={c.name} className="label cursor-pointer justify-start gap-2">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={chosen.includes(c.name)}
                  onChange={(e) => {
                    setChosen((prev) => (e.target.checked ? [...prev, c.name] : prev.filter((n) => n !== c.name)))
                    setShared(null)
                  }}
                />
                {c.label}
              </label>
            ))}
            <Button variant="outline" onClick={() => void share()}>
              <Share2 className="size-4" aria-hidden />
              Generar presentación
            </Button>
          </fieldset>
          {shared && (
            <div className="space-y-2" data-testid="credential-presentation">
              <img src={shared.qr} alt="Código QR de la presentación" className="mx-auto size-64" />
              <label className="label text-sm" htmlFor="presentation-link">
                Enlace para verificar
              </label>
              <textarea id="presentation-link" className="textarea w-full font-mono text-xs" rows={4} readOnly value={shared.text} />
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="outline"
                  onClick={() => void navigator.clipboard?.writeText(shared.text).then(() => setCopied(true))}
                >
                  <Copy className="size-4" aria-hidden />
                  {copied ? 'Copiado' : 'Copiar enlace'}
                </Button>
                <a className="btn btn-ghost" href={shared.text} target="_blank" rel="noreferrer">
                  Abrir en el verificador
                </a>
              </div>
            </div>
          )}
        </>
      )}
      <WalletOffer userId={userId} />
    </CredentialCardFrame>
  )
}
