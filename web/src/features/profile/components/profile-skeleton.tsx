/** Placeholders while the profile loads. */
export function ProfileSkeleton() {
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10" aria-busy="true" aria-label="Cargando perfil">
      <div className="skeleton h-9 w-48" />
      <div className="skeleton h-16 w-full" />
      <div className="grid gap-8 lg:grid-cols-[minmax(0,28rem)_1fr]">
        <div className="skeleton h-72 w-full" />
        <div className="space-y-6">
          <div className="skeleton h-80 w-full" />
          <div className="skeleton h-40 w-full" />
        </div>
      </div>
    </div>
  )
}
