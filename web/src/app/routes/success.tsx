import { Link } from 'react-router-dom'
import { CircleCheck } from 'lucide-react'
import { buttonClass } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { usePageTitle } from '@/lib/page-title'

/** The short confirmation of DECISIONS.md: '¡Listo!' and a link to /profile. */
export function SuccessRoute() {
  usePageTitle('¡Listo!')
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md text-center">
        <CardBody className="items-center">
          <CircleCheck className="size-14 text-success" aria-hidden />
          <h1 className="mt-2 text-2xl font-bold">¡Listo!</h1>
          <p className="text-base-content/70">Tu proceso se completó correctamente.</p>
          <Link to="/profile" className={buttonClass('default', 'default', 'mt-4')}>
            Ir a mi perfil
          </Link>
        </CardBody>
      </Card>
    </div>
  )
}
