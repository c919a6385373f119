import type { ReactNode } from 'react'
import { ShieldCheck } from 'lucide-react'

/** The centred card that frames the registration and sign-in screens. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-[70vh] items-start justify-center bg-gradient-to-b from-primary/5 to-base-100 px-4 py-12 sm:items-center">
      <div className="card w-full max-w-md border border-base-300 bg-base-100 shadow-xl">
        <div className="card-body gap-6">
          <div className="text-center">
            <div className="mx-auto flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
              <ShieldCheck className="size-7" aria-hidden />
            </div>
            <h1 className="mt-3 text-2xl font-bold">{title}</h1>
            {subtitle && <h2 className="mt-1 text-base font-normal text-base-content/70">{subtitle}</h2>}
          </div>
          {children}
          {footer && <div className="border-t border-base-300 pt-4 text-center text-sm text-base-content/70">{footer}</div>}
        </div>
      </div>
    </div>
  )
}
