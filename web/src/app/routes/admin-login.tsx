import { AdminLoginScreen } from '@/features/admin/components/admin-login-screen'
import { usePageTitle } from '@/lib/page-title'

/** /admin-login */
export function AdminLoginRoute() {
  usePageTitle('Acceso de Administrador')
  return <AdminLoginScreen />
}
