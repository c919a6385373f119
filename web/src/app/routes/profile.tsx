import { ProfileScreen } from '@/features/profile/components/profile-screen'
import { usePageTitle } from '@/lib/page-title'

/** /profile */
export function ProfileRoute() {
  usePageTitle('Mi Perfil')
  return <ProfileScreen />
}
