import ArrowRight from 'lucide-react/icons/arrow-right'
import type { AnchorHTMLAttributes, ReactNode } from 'react'
import { type ButtonSize, type ButtonVariant, buttonClasses } from './buttonStyles'

export type ActionLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  href: string
  children: ReactNode
  variant?: ButtonVariant
  size?: ButtonSize
  /** Trailing arrow, on by default for primary links. */
  arrow?: boolean
}

/** A link that looks like a button: calls to action such as "Talk to an Expert". */
export function ActionLink({
  href,
  children,
  variant = 'primary',
  size = 'md',
  arrow = variant === 'primary',
  className,
  ...rest
}: ActionLinkProps) {
  return (
    <a href={href} className={buttonClasses(variant, size, `group ${className ?? ''}`)} {...rest}>
      {children}
      {arrow && (
        <ArrowRight aria-hidden="true" className="transition-transform duration-200 group-hover:translate-x-0.5" />
      )}
    </a>
  )
}
