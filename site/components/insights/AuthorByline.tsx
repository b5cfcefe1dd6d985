import { cx } from '../../lib/cx'
import { Picture } from '../ui/Picture'

export type AuthorBylineProps = {
  name: string
  role: string
  avatar: string
  /** The portrait's alternative text from the content; empty when it is decorative. */
  avatarAlt: string
  /** `lg` in an article's header, `md` on a card. */
  size?: 'md' | 'lg'
  /** Whether the portrait is in the first screen (loads eagerly) or further down (lazily). */
  eager?: boolean
}

const sizes = {
  md: { px: 44, className: 'size-11', role: 'text-ink-500' },
  lg: { px: 48, className: 'size-12', role: 'text-ink-600' },
} as const

/** An article's author: round portrait, name and role. */
export function AuthorByline({ name, role, avatar, avatarAlt, size = 'md', eager = false }: AuthorBylineProps) {
  const s = sizes[size]
  return (
    <div className="flex items-center gap-3">
      <Picture
        src={avatar}
        alt={avatarAlt}
        width={s.px}
        height={s.px}
        sizes={`${s.px}px`}
        priority={eager ? 'eager' : 'lazy'}
        className={cx(s.className, 'shrink-0 rounded-full ring-2 ring-white')}
      />
      <p className="flex flex-col">
        <span className="font-semibold text-ink-900">{name}</span>
        <span className={cx('text-sm', s.role)}>{role}</span>
      </p>
    </div>
  )
}
