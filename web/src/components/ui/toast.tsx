import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { CircleAlert, CircleCheck, X } from 'lucide-react'
import { cn } from '@/lib/cn'

/** What a toast says and how it looks. */
export type ToastOptions = {
  title: string
  description?: ReactNode
  variant?: 'default' | 'destructive'
  /** Milliseconds on screen; 5000 by default. */
  duration?: number
}

type ShownToast = ToastOptions & { id: number }

type ToastContextValue = {
  toast: (options: ToastOptions) => void
  dismiss: () => void
}

const ToastContext = createContext<ToastContextValue | null>(null)

/** Default time a toast stays up. */
export const DEFAULT_TOAST_MS = 5000

/**
 * Holds the single visible toast (SPEC §9: one at a time): a new toast
 * replaces the current one.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ShownToast | null>(null)
  const nextId = useRef(1)

  const toast = useCallback((options: ToastOptions) => {
    setCurrent({ ...options, id: nextId.current++ })
  }, [])
  const dismiss = useCallback(() => setCurrent(null), [])

  useEffect(() => {
    if (!current) return
    const timer = window.setTimeout(() => setCurrent(null), current.duration ?? DEFAULT_TOAST_MS)
    return () => window.clearTimeout(timer)
  }, [current])

  const value = useMemo(() => ({ toast, dismiss }), [toast, dismiss])

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toast toast-end toast-bottom z-[60]" aria-live="polite">
        {current && (
          <div
            key={current.id}
            role={current.variant === 'destructive' ? 'alert' : 'status'}
            data-testid="toast"
            className={cn(
              'alert max-w-sm items-start whitespace-normal shadow-lg',
              current.variant === 'destructive' ? 'alert-error' : 'bg-base-100 border-base-300',
            )}
          >
            {current.variant === 'destructive' ? (
              <CircleAlert className="size-5 shrink-0" aria-hidden />
            ) : (
              <CircleCheck className="size-5 shrink-0 text-success" aria-hidden />
            )}
            <div className="min-w-0 flex-1 text-left">
              <p className="font-semibold">{current.title}</p>
              {current.description && <div className="text-sm opacity-90 break-words">{current.description}</div>}
            </div>
            <button type="button" className="btn btn-ghost btn-xs btn-square" onClick={dismiss} aria-label="Cerrar aviso">
              <X className="size-4" aria-hidden />
            </button>
          </div>
        )}
      </div>
    </ToastContext.Provider>
  )
}

/** Shows and dismisses the app's toast. */
export function useToast(): ToastContextValue {
  const ctx = useContext(ToastContext)
  if (!ctx) throw new Error('useToast must be used inside ToastProvider')
  return ctx
}
