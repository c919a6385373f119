import { useEffect, useRef, useState } from 'react'
import { Camera, CircleCheck, CircleX, Clock, ShieldAlert, Upload } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { fetchIssuerMetadata, fetchStatusList } from '../api/credentials'
import { CredentialError, verifyCredential, type StatusList, type VerifiedCredential } from '../lib/sd-jwt'
import { presentationFrom, qrFromImageFile, scanWithCamera } from '../lib/scan'

const claimLabels: Record<string, string> = {
  profile_id: 'ID de perfil',
  verification_level: 'Nivel de verificación',
  name: 'Nombre',
  validated_at: 'Fecha de validación',
  origin: 'Origen',
  scores: 'Puntajes biométricos',
  // The identity document's data (issue 52), in a credential of a profile certified by its ID.
  given_name: 'Nombre(s)',
  family_name: 'Apellidos',
  birthdate: 'Fecha de nacimiento',
  age_equal_or_over: 'Mayoría de edad',
  nationalities: 'Nacionalidad',
  personal_administrative_number: 'CURP',
}

const scoreLabels: Record<string, string> = {
  overall: 'General',
  face_match: 'Coincidencia facial',
  document: 'Documento',
  liveness: 'Prueba de vida',
}

const dateFmt = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'America/Mexico_City' })
const dateTimeFmt = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/Mexico_City' })

export function claimValue(name: string, value: unknown): string {
  if (name === 'verification_level') return `Nivel ${value}`
  if (name === 'validated_at' && typeof value === 'string') return dateFmt.format(new Date(value))
  if (name === 'birthdate' && typeof value === 'string') {
    // A calendar date: read in UTC so no time zone moves it to the day before.
    return new Intl.DateTimeFormat('es-MX', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`))
  }
  if (name === 'age_equal_or_over' && value && typeof value === 'object') {
    const over = (value as Record<string, unknown>)['18']
    return over === true ? 'Mayor de 18 años' : over === false ? 'Menor de 18 años' : 'No divulgada'
  }
  if (name === 'nationalities' && Array.isArray(value)) return value.join(', ')
  if (name === 'scores' && value && typeof value === 'object') {
    return Object.entries(value as Record<string, number>)
      .map(([k, v]) => `${scoreLabels[k] ?? k}: ${v}`)
      .join(' · ')
  }
  return String(value)
}

/** How old the status list is, in the product's words. */
export function statusAge(issuedAt: Date, now = new Date()): string {
  const minutes = Math.max(0, Math.round((now.getTime() - issuedAt.getTime()) / 60_000))
  const ago = minutes < 1 ? 'hace menos de un minuto' : minutes < 60 ? `hace ${minutes} min` : `hace ${Math.round(minutes / 60)} h`
  return `Lista de revocación firmada el ${dateTimeFmt.format(issuedAt)} (${ago})`
}

type Outcome = { result: VerifiedCredential; list: StatusList | null } | { error: string }

const verdicts = {
  valida: { title: 'Credencial válida', variant: 'success', icon: CircleCheck,
    text: 'La firma de Perfil Seguro es auténtica, la credencial está vigente y no ha sido revocada.' },
  revocada: { title: 'Credencial revocada', variant: 'destructive', icon: CircleX,
    text: 'Perfil Seguro revocó esta credencial: ya no acredita la identidad de su titular.' },
  expirada: { title: 'Credencial expirada', variant: 'warning', icon: Clock,
    text: 'La vigencia de esta credencial terminó: pide a su titular que renueve su validación.' },
} as const

/**
 * The verifier: a presented credential is pasted, uploaded or scanned and checked in this browser
 * with Perfil Seguro's published keys and status list; only what the holder disclosed is shown.
 */
export function CredentialVerifier() {
  const [text, setText] = useState(() => presentationFrom(window.location.hash))
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const [checking, setChecking] = useState(false)
  const [scanning, setScanning] = useState<AbortController | null>(null)
  const video = useRef<HTMLVideoElement>(null)

  async function verify(presented = text) {
    setChecking(true)
    setOutcome(null)
    let list: StatusList | null = null
    try {
      const meta = await fetchIssuerMetadata()
      const result = await verifyCredential(presentationFrom(presented), {
        issuer: meta.issuer,
        keys: meta.jwks.keys,
        statusList: async (uri) => (list = await fetchStatusList(uri, meta.jwks.keys)),
      })
      setOutcome({ result, list })
    } catch (err) {
      setOutcome({
        error: err instanceof CredentialError ? err.message
          : 'No pudimos consultar las llaves o la lista de revocación de Perfil Seguro. Conéctate a internet una vez y vuelve a intentarlo.',
      })
    } finally {
      setChecking(false)
    }
  }

  // A link from a holder (#vp=…) is checked as soon as the page opens.
  useEffect(() => {
    if (text) void verify(text)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  async function scan() {
    if (!video.current) return
    const stop = new AbortController()
    setScanning(stop)
    try {
      const found = await scanWithCamera(video.current, stop.signal)
      if (found) {
        setText(presentationFrom(found))
        void verify(found)
      }
    } catch {
      setOutcome({ error: 'No pudimos usar la cámara. Permite el acceso o pega la credencial.' })
    } finally {
      setScanning(null)
    }
  }

  async function upload(file: File) {
    const content = file.type.startsWith('image/') ? await qrFromImageFile(file) : await file.text()
    if (!content) {
      setOutcome({ error: 'No encontramos un código QR en la imagen.' })
      return
    }
    setText(presentationFrom(content))
    void verify(content)
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10">
      <div>
        <h1 className="text-3xl font-bold">Verificar una credencial</h1>
        <p className="text-base-content/70">
          Pega, sube o escanea la credencial que te presentaron. La revisamos en este navegador con las llaves públicas de
          Perfil Seguro y su lista de revocación: nadie recibe una consulta sobre la persona.
        </p>
      </div>
      <Card>
        <CardBody className="space-y-3">
          <label className="label" htmlFor="presented-credential">
            Credencial presentada
          </label>
          <textarea
            id="presented-credential"
            className="textarea w-full font-mono text-xs"
            rows={6}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="eyJhbGciOiJFUzI1NiIs…~"
          />
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void verify()} disabled={checking || !text.trim()}>
              {checking ? 'Verificando…' : 'Verificar'}
            </Button>
            <label className="btn btn-outline">
              <Upload className="size-4" aria-hidden />
              Subir archivo o imagen
              <input
                type="file"
                className="hidden"
                accept=".sd-jwt,.txt,image/*"
                onChange={(e) => e.target.files?.[0] && void upload(e.target.files[0])}
              />
            </label>
            {scanning ? (
              <Button variant="outline" onClick={() => scanning.abort()}>
                Detener cámara
              </Button>
            ) : (
              <Button variant="outline" onClick={() => void scan()}>
                <Camera className="size-4" aria-hidden />
                Escanear código QR
              </Button>
            )}
          </div>
          <video ref={video} className={scanning ? 'w-full rounded-box' : 'hidden'} muted playsInline aria-label="Cámara" />
        </CardBody>
      </Card>
      {outcome && 'error' in outcome && (
        <Alert variant="destructive" icon={<ShieldAlert className="size-5" aria-hidden />} title="Credencial no válida" titleLevel={2} data-testid="credential-verdict">
          {outcome.error}
        </Alert>
      )}
      {outcome && 'result' in outcome && <VerifiedView outcome={outcome} />}
    </div>
  )
}

function VerifiedView({ outcome }: { outcome: { result: VerifiedCredential; list: StatusList | null } }) {
  const { result, list } = outcome
  const v = verdicts[result.verdict]
  const Icon = v.icon
  const shown = Object.keys(claimLabels).filter((k) => k in result.claims)
  return (
    <Card>
      <CardBody className="space-y-4">
        <Alert variant={v.variant} icon={<Icon className="size-5" aria-hidden />} title={v.title} titleLevel={2} data-testid="credential-verdict">
          {v.text}
        </Alert>
        <CardTitle>Datos que el titular compartió</CardTitle>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          {shown.map((k) => (
            <div key={k} className="contents">
              <dt className="font-medium">{claimLabels[k]}</dt>
              <dd data-testid={`claim-${k}`}>{claimValue(k, result.claims[k])}</dd>
            </div>
          ))}
          <dt className="font-medium">Vigente hasta</dt>
          <dd>{dateFmt.format(result.expiresAt)}</dd>
        </dl>
        {list && (
          <CardDescription data-testid="status-list-age">
            {statusAge(list.issuedAt)}
            {!navigator.onLine && '. Sin conexión: se usó la última lista guardada en este dispositivo.'}
          </CardDescription>
        )}
      </CardBody>
    </Card>
  )
}
