import type { ReactNode } from 'react'
import { buttonClass, type ButtonSize, type ButtonVariant } from '@/components/ui/button'
import { ONBOARDING_URL } from '@/lib/config'
import type { PaidPlanCode } from '@/lib/plans'

const ABSOLUTE = /^([a-z][a-z\d+.-]*:)?\/\//i
const PLACEHOLDER_ORIGIN = 'http://placeholder.invalid'

/**
 * The onboarding URL carrying the chosen plan as ?plan=…, whether the URL is absolute or
 * relative and whatever query or hash it already has.
 */
export function onboardingHref(base: string, plan?: PaidPlanCode): string {
  if (!plan) return base
  const url = new URL(base, `${PLACEHOLDER_ORIGIN}/`)
  url.searchParams.set('plan', plan)
  if (!ABSOLUTE.test(base)) return `${url.pathname}${url.search}${url.hash}`
  // A protocol-relative base stays protocol-relative.
  return base.startsWith('//') ? url.href.slice(url.protocol.length) : url.href
}

/** A button-styled link that opens the onboarding flow in a new tab (DECISIONS.md), with the plan chosen if any. */
export function OnboardingLink({
  children,
  plan,
  variant = 'default',
  size = 'default',
  className,
}: {
  children: ReactNode
  plan?: PaidPlanCode
  variant?: ButtonVariant
  size?: ButtonSize
  className?: string
}) {
  return (
    <a href={onboardingHref(ONBOARDING_URL, plan)} target="_blank" rel="noopener noreferrer" className={buttonClass(variant, size, className)}>
      {children}
    </a>
  )
}
