import { AlertCircle } from 'lucide-react'
import { Card, CardBody } from '@/components/ui/card'
import { usePageTitle } from '@/lib/page-title'

/** The screen for any path outside the route table. */
export function NotFoundRoute() {
  usePageTitle('Página no encontrada')
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <Card className="w-full max-w-md">
        <CardBody>
          <div className="flex items-center gap-2">
            <AlertCircle className="size-8 text-error" aria-hidden />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="mt-4 text-sm text-base-content/70">Did you forget to add the page to the router?</p>
        </CardBody>
      </Card>
    </div>
  )
}
