import { cx } from '../../lib/cx'
import { LogoMark } from './LogoMark'

export type BrandLinkProps = {
  name: string
  /** The home page's path in the language of the page (`/`, `/et`). */
  href: string
  /** Accessible name of the link (it contains the brand name). */
  label: string
  /** `light` for the white navigation bar, `dark` for the footer. */
  on?: 'light' | 'dark'
}

/** Logo and brand name, linking to the home page. */
export function BrandLink({ name, href, label, on = 'light' }: BrandLinkProps) {
  return (
    <a href={href} aria-label={label} className="group inline-flex items-center gap-2.5 rounded-lg">
      <LogoMark className="size-8 transition-transform duration-200 group-hover:scale-105" />
      <span className={cx('text-lg font-bold tracking-tight', on === 'light' ? 'text-ink-950' : 'text-white')}>
        {name}
      </span>
    </a>
  )
}
