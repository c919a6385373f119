import { Card, CardBody } from '@/components/ui/card'
import { usePageTitle } from '@/lib/page-title'

/** A titled stand-in for a screen that is not built yet. */
export function PlaceholderRoute({ title }: { title: string }) {
  usePageTitle(title)
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <Card>
        <CardBody>
          <h1 className="text-2xl font-bold">{title}</h1>
          <p className="text-base-content/70">Esta sección estará disponible muy pronto.</p>
        </CardBody>
      </Card>
    </div>
  )
}
