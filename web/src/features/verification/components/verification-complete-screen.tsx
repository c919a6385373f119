import { useEffect } from 'react'
import { CircleCheck } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'

/** How long the completion window stays open (SPEC §9: 5 s). */
export const COMPLETE_CLOSE_MS = 5000

/** Verification completed (SPEC §2): closes the window after 5 seconds or on the button. */
export function VerificationCompleteScreen() {
  useEffect(() => {
    const timer = window.setTimeout(() => window.close(), COMPLETE_CLOSE_MS)
    return () => window.clearTimeout(timer)
  }, [])

  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md text-center">
        <CardBody className="items-center">
          <CircleCheck className="size-14 text-success" aria-hidden />
          <h1 className="mt-2 text-2xl font-bold">Verificación completada</h1>
          <p className="text-base-content/70">
            Terminaste el proceso de verificación. Esta ventana se cerrará automáticamente en 5 segundos; tu perfil se
            actualizará en la ventana original.
          </p>
          <Button className="mt-4" onClick={() => window.close()}>
            Cerrar ventana
          </Button>
        </CardBody>
      </Card>
    </div>
  )
}
