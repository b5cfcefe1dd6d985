import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'

export type EyebrowProps = {
  children: ReactNode
  /** `light` on white or muted backgrounds, `dark` on ink or brand backgrounds. */
  on?: 'light' | 'dark'
  className?: string
}

/** The small uppercase label above a headline. */
export function Eyebrow({ children, on = 'light', className }: EyebrowProps) {
  return (
    <p
      className={cx(
        'inline-flex items-center gap-2 text-eyebrow uppercase',
        on === 'light' ? 'text-brand-700' : 'text-brand-200',
        className,
      )}
    >
      <span aria-hidden="true" className={cx('h-px w-6', on === 'light' ? 'bg-brand-600' : 'bg-brand-300')} />
      {children}
    </p>
  )
}
