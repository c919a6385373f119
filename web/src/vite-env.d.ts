/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the landing's onboarding buttons go (DECISIONS.md ONBOARDING_URL); default /register. */
  readonly VITE_ONBOARDING_URL?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
