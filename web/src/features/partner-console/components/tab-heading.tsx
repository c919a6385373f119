import type { ReactNode } from 'react'

/** A console tab's heading: the h2 its section is named by (id), and the line that says what the tab is for. */
export function TabHeading({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <div>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="text-sm text-base-content/70">{children}</p>
    </div>
  )
}
