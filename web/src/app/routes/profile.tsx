import { CredentialCard } from '@/features/credentials/components/credential-card'
import { ProfileScreen } from '@/features/profile/components/profile-screen'
import { usePageTitle } from '@/lib/page-title'

/** /profile */
export function ProfileRoute() {
  usePageTitle('Mi Perfil')
  return <ProfileScreen credential={(profileId) => <CredentialCard profileId={profileId} />} />
}
