import type { HTMLAttributes, ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import { cn } from '@/lib/cn'

/** A daisyUI card with a border and soft shadow. */
export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('card bg-base-100 border border-base-300 shadow-sm', className)} {...props} />
}

/** The padded body of a Card. */
export function CardBody({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('card-body', className)} {...props} />
}

/** The heading of a Card. */
export function CardTitle({ className, ...props }: HTMLAttributes<HTMLHeadingElement>) {
  return <h2 className={cn('card-title', className)} {...props} />
}

/** Secondary text under a card title. */
export function CardDescription({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn('text-sm text-base-content/70', className)} {...props} />
}

/**
 * The centred card of a screen that is one step (signing in, registering a passkey): the icon, the
 * page's h1 and a line under it, then the content. welcome gives a sign-in's look: a tinted
 * background and the icon on a tile.
 */
export function ScreenCard({
  icon: Icon,
  title,
  description,
  welcome = false,
  children,
}: {
  icon: LucideIcon
  title: string
  description: ReactNode
  welcome?: boolean
  children: ReactNode
}) {
  return (
    <div className={cn('flex min-h-[70vh] items-start justify-center px-4 py-12 sm:items-center', welcome && 'bg-gradient-to-b from-primary/5 to-base-100')}>
      <Card className="w-full max-w-md shadow-xl">
        <CardBody className={welcome ? 'gap-6' : 'gap-5'}>
          <div className="text-center">
            {welcome ? (
              <div className="mx-auto flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
                <Icon className="size-7" aria-hidden />
              </div>
            ) : (
              <Icon className="mx-auto size-10 text-primary" aria-hidden />
            )}
            <h1 className="mt-3 text-2xl font-bold">{title}</h1>
            <CardDescription className="mt-1">{description}</CardDescription>
          </div>
          {children}
        </CardBody>
      </Card>
    </div>
  )
}
