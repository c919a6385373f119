// Settings of the web app.

/** A setting the server puts in the page's head (<meta name="…" content="…">); undefined where
 * there is no page (the build's prerender runs in Node) or no such setting. */
export function pageSetting(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined
}

/** Where the landing's onboarding buttons go, opened in a new tab (DECISIONS.md): the server's
 * ONBOARDING_URL (api/spa.go), else the build's VITE_ONBOARDING_URL, else this app's /register. */
export const ONBOARDING_URL: string = pageSetting('ps-onboarding-url') ?? import.meta.env.VITE_ONBOARDING_URL ?? '/register'

/** The support contact shown on the profile (DECISIONS.md). */
export const SUPPORT_EMAIL = 'soporte@perfilseguro.mx'

/** The product name ({product} in SPEC). */
export const PRODUCT_NAME = 'Perfil Seguro'
