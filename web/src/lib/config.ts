// Build-time settings of the web app.

/** Where the landing's onboarding buttons go, opened in a new tab (DECISIONS.md). */
export const ONBOARDING_URL: string = import.meta.env.VITE_ONBOARDING_URL ?? '/register'

/** The support contact shown on the profile (DECISIONS.md). */
export const SUPPORT_EMAIL = 'soporte@perfilseguro.mx'

/** The product name ({product} in SPEC). */
export const PRODUCT_NAME = 'Perfil Seguro'
