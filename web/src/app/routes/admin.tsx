import { AdminGuard } from '@/features/admin/components/admin-guard'
import { AdminPanel } from '@/features/admin/components/admin-panel'
import { usePageTitle } from '@/lib/page-title'

/** /admin, behind the 4-hour admin guard. */
export function AdminRoute() {
  usePageTitle('Panel de Administración')
  return (
    <AdminGuard>
      <AdminPanel />
    </AdminGuard>
  )
}
