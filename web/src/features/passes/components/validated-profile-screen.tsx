import { useEffect, useState } from 'react'
import { Link, Navigate, useSearchParams } from 'react-router-dom'
import { CircleAlert, CircleCheck, Download, ShieldX } from 'lucide-react'
import { useUser } from '@/api/get-user'
import { DigitalIdCard } from '@/components/digital-id-card/digital-id-card'
import { Button, buttonClass } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { useToast } from '@/components/ui/toast'
import { readStorage, storageKeys, writeStorage } from '@/lib/storage'
import { downloadQr } from '../api/download-qr'
import { passExpiry, quirkVigenciaHasta } from '../validity'

function formatDate(date: Date | string | null | undefined): string {
  if (!date) return 'Pendiente'
  const d = date instanceof Date ? date : new Date(date)
  return Number.isNaN(d.getTime()) ? 'Pendiente' : d.toLocaleDateString('es-MX', { year: 'numeric', month: 'long', day: 'numeric' })
}

/**
 * The validated-profile variant of the profile (SPEC §2): reached after verification with
 * ?userId= (stored locally) or with a stored userId; neither sends the person to /register.
 */
export function ValidatedProfileScreen() {
  const [params] = useSearchParams()
  const [userId] = useState(() => params.get('userId') || readStorage(storageKeys.userId))
  const fromQuery = params.get('userId')
  useEffect(() => {
    if (fromQuery) writeStorage(storageKeys.userId, fromQuery)
  }, [fromQuery])
  const holder = useUser(userId)
  const { toast } = useToast()
  const [downloading, setDownloading] = useState(false)

  if (!userId) return <Navigate to="/register" replace />
  if (holder.isPending) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center" aria-label="Cargando">
        <span className="loading loading-spinner loading-lg text-primary" />
      </div>
    )
  }
  if (holder.isError || !holder.data) return <LoadError />

  const user = holder.data
  // A revoked validation is never shown as validated here either (issue 38).
  const revoked = Boolean(user.revokedAt)
  const name = user.nombre?.trim() || 'Usuario Verificado'
  const profileId = user.profileId ?? user.id_validado ?? ''
  const qrUrl = user.qr_url || null

  const onDownload = async () => {
    if (!qrUrl) return
    setDownloading(true)
    try {
      await downloadQr(qrUrl, profileId)
      toast({ title: 'QR descargado correctamente' })
    } catch {
      toast({ title: 'Error', description: 'No se pudo descargar el QR. Intenta nuevamente.', variant: 'destructive' })
    } finally {
      setDownloading(false)
    }
  }

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 lg:grid-cols-2 lg:items-start">
      <Card>
        <CardBody className="gap-5">
          {revoked ? (
            <div className="space-y-2">
              <div className="flex items-center gap-3">
                <ShieldX className="size-10 text-error" aria-hidden />
                <h1 className="text-2xl font-bold">Validación revocada</h1>
              </div>
              <p className="text-sm">
                Perfil Seguro revocó la validación de tu identidad. Mientras siga revocada, no puedes iniciar una nueva
                verificación. Si crees que es un error, escríbenos a soporte.
              </p>
            </div>
          ) : (
            <div className="flex items-center gap-3">
              <CircleCheck className="size-10 text-success" aria-hidden />
              <h1 className="text-2xl font-bold">Perfil validado correctamente</h1>
            </div>
          )}
          <dl className="space-y-3">
            <Row label="Nombre" value={name} />
            <Row label="ID validado" value={profileId} mono />
            <Row label="Fecha de validación" value={formatDate(user.fecha_validacion)} />
            {!revoked && <Row label="Vigencia hasta" value={formatDate(quirkVigenciaHasta(user.vigencia))} />}
          </dl>
          <Button onClick={onDownload} disabled={!qrUrl || downloading}>
            {downloading ? <span className="loading loading-spinner loading-sm" /> : <Download className="size-4" aria-hidden />}
            Descargar mi QR
          </Button>
          <div className="flex flex-wrap gap-2">
            <Link to="/" className={buttonClass('outline')}>
              Volver al inicio
            </Link>
            <Link to="/profile" className={buttonClass('secondary')}>
              Ver mi perfil
            </Link>
          </div>
        </CardBody>
      </Card>
      <div className="flex justify-center">
        <DigitalIdCard
          name={name}
          id={profileId}
          verified={!revoked && Boolean(user.biometricVerified) && (user.verificationLevel ?? 0) >= 3}
          ended={revoked ? 'Revocado' : null}
          expirationDate={passExpiry(user.fecha_validacion, user.vigencia)}
          qrCode={qrUrl}
          userId={String(user.id)}
        />
      </div>
    </div>
  )
}

function Row({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-base-content/70">{label}</dt>
      <dd className={mono ? 'font-mono' : 'font-medium'}>{value}</dd>
    </div>
  )
}

function LoadError() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md text-center">
        <CardBody className="items-center">
          <CircleAlert className="size-12 text-error" aria-hidden />
          <h1 className="mt-2 text-xl font-bold">Error al cargar tu perfil</h1>
          <p className="text-base-content/70">
            No pudimos encontrar tu información. Por favor, intenta nuevamente o contacta a soporte.
          </p>
          <Link to="/" className={buttonClass('default', 'default', 'mt-4')}>
            Volver al inicio
          </Link>
        </CardBody>
      </Card>
    </div>
  )
}
