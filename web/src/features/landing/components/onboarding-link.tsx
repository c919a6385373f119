import type { ReactNode } from 'react'
import { buttonClass, type ButtonSize, type ButtonVariant } from '@/components/ui/button'
import { ONBOARDING_URL } from '@/lib/config'

/** A button-styled link that opens the onboarding flow in a new tab (DECISIONS.md). */
export function OnboardingLink({
  children,
  variant = 'default',
  size = 'default',
  className,
}: {
  children: ReactNode
  variant?: ButtonVariant
  size?: ButtonSize
  className?: string
}) {
  return (
    <a href={ONBOARDING_URL} target="_blank" rel="noopener noreferrer" className={buttonClass(variant, size, className)}>
      {children}
    </a>
  )
}
