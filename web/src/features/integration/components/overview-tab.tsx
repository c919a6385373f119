import { Fingerprint, MessageSquareText, QrCode, ShieldAlert, Wallet } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Badge, type BadgeVariant } from '@/components/ui/badge'
import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import { compatiblePlatforms, widgetFeatures, type PlatformStatus } from '../content'

const featureIcon = { sms: MessageSquareText, biometric: Fingerprint, wallet: Wallet, qr: QrCode }

const statusVariant: Record<PlatformStatus, BadgeVariant> = {
  Implementado: 'success',
  Integrado: 'default',
  Disponible: 'outline',
}

/** 'Resumen': what the widget does, the compatible platforms and the CORS notice. */
export function OverviewTab() {
  return (
    <div className="space-y-10">
      <section aria-labelledby="widget-que-es" className="space-y-4">
        <h2 id="widget-que-es" className="text-2xl font-bold">
          ¿Qué es el widget?
        </h2>
        <p className="max-w-3xl text-base-content/70">
          Un componente para plataformas inmobiliarias que valida la identidad de compradores, vendedores y brokers sin salir de
          tu sitio. La persona valida su identidad una sola vez y su Perfil Seguro funciona en todo el ecosistema.
        </p>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {widgetFeatures.map((feature) => {
            const Icon = featureIcon[feature.key]
            return (
              <Card key={feature.key}>
                <CardBody className="gap-3">
                  <span className="flex size-10 items-center justify-center rounded-xl bg-primary/10 text-primary">
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <h3 className="font-semibold">{feature.title}</h3>
                  <p className="text-sm text-base-content/70">{feature.text}</p>
                </CardBody>
              </Card>
            )
          })}
        </div>
      </section>

      <section aria-labelledby="widget-plataformas" className="space-y-4">
        <h2 id="widget-plataformas" className="text-2xl font-bold">
          Plataformas compatibles
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {compatiblePlatforms.map((platform) => (
            <li key={platform.name}>
              <Card className="h-full">
                <CardBody className="gap-2">
                  <div className="flex items-center justify-between gap-2">
                    <CardTitle className="text-base">{platform.name}</CardTitle>
                    <Badge variant={statusVariant[platform.status]}>{platform.status}</Badge>
                  </div>
                  <CardDescription>{platform.description}</CardDescription>
                </CardBody>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <Alert variant="warning" icon={<ShieldAlert className="size-5" aria-hidden />} title="Solo dominios autorizados (CORS)">
        Los endpoints del widget solo aceptan solicitudes de dominios autorizados. Para agregar el dominio de tu plataforma,
        contacta a nuestro equipo técnico.
      </Alert>
    </div>
  )
}
