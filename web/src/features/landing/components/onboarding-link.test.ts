import { describe, expect, it } from 'vitest'
import { onboardingHref } from './onboarding-link'

describe('onboardingHref', () => {
  it('leaves the URL as is without a plan', () => {
    expect(onboardingHref('/register')).toBe('/register')
  })

  it('appends the plan to relative and absolute URLs, keeping their query and hash', () => {
    expect(onboardingHref('/register', 'one_year')).toBe('/register?plan=one_year')
    expect(onboardingHref('/register?utm_source=landing#form', 'five_years')).toBe('/register?utm_source=landing&plan=five_years#form')
    expect(onboardingHref('https://app.example.mx/alta?ref=x', 'one_year')).toBe('https://app.example.mx/alta?ref=x&plan=one_year')
    expect(onboardingHref('//app.example.mx/alta', 'one_year')).toBe('//app.example.mx/alta?plan=one_year')
    expect(onboardingHref('/register?plan=old', 'one_year')).toBe('/register?plan=one_year')
  })
})
