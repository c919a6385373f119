import { AdminEnrolScreen } from '@/features/admin/components/admin-enrol-screen'
import { usePageTitle } from '@/lib/page-title'

/** /admin-enrol */
export function AdminEnrolRoute() {
  usePageTitle('Registro de administrador')
  return <AdminEnrolScreen />
}
