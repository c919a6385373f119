import { CopyButton } from './copy-button'

/** A titled dark code panel with a copy button (flex-col undoes daisyUI's centring of figures inside cards). */
export function CodeBlock({ title, code, language }: { title: string; code: string; language: string }) {
  return (
    <figure className="flex flex-col items-stretch justify-start overflow-hidden rounded-xl border border-base-300 bg-neutral text-neutral-content shadow-sm" data-language={language}>
      <figcaption className="flex items-center justify-between gap-3 border-b border-white/10 px-4 py-2">
        <span className="text-sm font-medium">{title}</span>
        <CopyButton text={code} label={title} />
      </figcaption>
      {/* Focusable, so that a keyboard can scroll a long sample (axe: scrollable-region-focusable). */}
      <pre tabIndex={0} className="max-h-[32rem] overflow-auto p-4 text-xs leading-relaxed sm:text-sm">
        <code>{code}</code>
      </pre>
    </figure>
  )
}
