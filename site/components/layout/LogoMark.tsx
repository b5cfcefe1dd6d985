import { useId } from 'react'
import { cx } from '../../lib/cx'

/** The brand's abstract mark (a valley under a ridge); decorative, the link carries the name. */
export function LogoMark({ className }: { className?: string }) {
  const gradientId = useId()
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={cx('shrink-0', className)}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#3730a3" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill={`url(#${gradientId})`} />
      <path d="M7 11.5 16 22l9-10.5" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M11 9.5h10" fill="none" stroke="#c7d2fe" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  )
}
