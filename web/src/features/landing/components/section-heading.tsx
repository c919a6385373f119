import type { ReactNode } from 'react'
import { cn } from '@/lib/cn'

/** The eyebrow, title and lead text that open each landing section. */
export function SectionHeading({
  eyebrow,
  title,
  align = 'center',
  children,
}: {
  eyebrow: string
  title: string
  align?: 'center' | 'left'
  children?: ReactNode
}) {
  return (
    <div className={cn('max-w-3xl', align === 'center' ? 'mx-auto text-center' : 'text-left')}>
      <p className="text-sm font-semibold uppercase tracking-widest text-primary">{eyebrow}</p>
      <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h2>
      {children && <p className="mt-4 text-lg text-base-content/70">{children}</p>}
    </div>
  )
}
