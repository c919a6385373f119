import { useLocation } from 'react-router-dom'
import { sectionHref, type SectionLink } from './section-links'

/** The landing anchors as a list of links (the header's on desktop, the footer's quick links). */
export function SectionLinkList({
  links,
  className,
  linkClassName,
}: {
  links: readonly SectionLink[]
  className: string
  linkClassName: string
}) {
  const { pathname } = useLocation()
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.hash}>
          <a href={sectionHref(link.hash, pathname)} className={linkClassName}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  )
}
