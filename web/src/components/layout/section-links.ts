/** A landing anchor shown in the header (desktop) and the footer. */
export type SectionLink = { hash: string; label: string }

/** The landing anchors shown in the header (desktop) and the footer. */
export const sectionLinks: readonly SectionLink[] = [
  { hash: '#que-es', label: '¿Qué es?' },
  { hash: '#beneficios', label: 'Beneficios' },
  { hash: '#precios', label: 'Precios' },
]

/** The anchors to show: without #precios when the landing shows no prices. */
export function visibleSectionLinks(showPricing: boolean): readonly SectionLink[] {
  return showPricing ? sectionLinks : sectionLinks.filter((link) => link.hash !== '#precios')
}

/** The href of a landing anchor: the bare hash on the landing, '/#…' elsewhere. */
export function sectionHref(hash: string, pathname: string): string {
  return pathname === '/' ? hash : `/${hash}`
}
