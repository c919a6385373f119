import { zodResolver } from '@hookform/resolvers/zod'
import { loginSchema, registerSchema, registrationCodeSchema } from './schemas'

// The sign-in and registration forms' rules with zod (~24 kB gzip). Screens reach this module
// only through authValidation (./validation.ts), so it loads after they paint (issue 38).

/** Resolver of the sign-in form. */
export const loginResolver = zodResolver(loginSchema)

/** Resolver of the registration details form. */
export const registerResolver = zodResolver(registerSchema)

export { registrationCodeSchema }
