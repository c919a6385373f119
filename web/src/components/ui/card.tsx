import type { HTMLAttributes } from 'react'
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
