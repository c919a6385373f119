import { useId, type ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import { cn } from '@/lib/cn'

/** One part of the "Mis datos" card: a titled section; danger frames it in red. */
export function MyDataSection({
  title,
  icon: Icon,
  danger = false,
  testId,
  children,
}: {
  title: string
  icon: LucideIcon
  danger?: boolean
  testId?: string
  children: ReactNode
}) {
  const id = useId()
  return (
    <section
      aria-labelledby={id}
      data-testid={testId}
      className={cn('space-y-3 text-sm', danger && 'rounded-box border border-error/40 bg-error/5 p-4')}
    >
      {/* daisyUI's error red is too light for text on this background (axe color-contrast): only the icon is red. */}
      <h3 id={id} className="flex items-center gap-2 text-base font-semibold">
        <Icon className={cn('size-5 shrink-0', danger && 'text-error')} aria-hidden />
        {title}
      </h3>
      {children}
    </section>
  )
}
