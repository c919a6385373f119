import { useEffect, useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router-dom'
import { adminSessionRemainingMs, clearAdminFlags } from '../admin-session'

/**
 * The 4-hour admin guard of SPEC §4: a spinner while checking; missing or
 * expired flags are cleared and the browser goes to /admin-login. It also
 * leaves when the 4 hours run out while the panel is open.
 */
export function AdminGuard({ children }: { children: ReactNode }) {
  const navigate = useNavigate()
  const [allowed, setAllowed] = useState(false)

  useEffect(() => {
    const remaining = adminSessionRemainingMs()
    const leave = () => {
      clearAdminFlags()
      navigate('/admin-login', { replace: true })
    }
    if (remaining <= 0) {
      leave()
      return
    }
    setAllowed(true)
    const timer = window.setTimeout(leave, remaining)
    return () => window.clearTimeout(timer)
  }, [navigate])

  if (!allowed) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center" role="status" aria-label="Verificando acceso">
        <span className="loading loading-spinner loading-lg text-primary" />
      </div>
    )
  }
  return <>{children}</>
}
