import { useEffect } from 'react'
import { registerSW } from 'virtual:pwa-register'
import { CredentialVerifier } from '@/features/credentials/components/credential-verifier'
import { usePageTitle } from '@/lib/page-title'

/** /verify: the credential verifier, which works offline once visited (service worker). */
export function VerifyCredentialRoute() {
  usePageTitle('Verificar credencial')
  useEffect(() => {
    if ('serviceWorker' in navigator) void registerSW({ immediate: true })
  }, [])
  return <CredentialVerifier />
}
