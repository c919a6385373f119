import { ValidatedProfileScreen } from '@/features/passes/components/validated-profile-screen'
import { usePageTitle } from '@/lib/page-title'

/** /profile/validated: the validated-profile variant of the profile (SPEC §2). */
export function ProfileValidatedRoute() {
  usePageTitle('Perfil validado')
  return <ValidatedProfileScreen />
}
