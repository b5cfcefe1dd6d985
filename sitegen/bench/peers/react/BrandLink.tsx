import { useId } from 'react'

/** The logo and the brand's name, linking home (site/components/layout/BrandLink.tsx). */
export function BrandLink({ name, label, tone }: { name: string; label: string; tone: 'dark' | 'light' }) {
  const gradient = useId()
  return (
    <a href="/" aria-label={label} className="group inline-flex items-center gap-2.5 rounded-lg">
      <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="shrink-0 size-8 transition-transform duration-200 group-hover:scale-105">
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#6366f1" />
            <stop offset="1" stopColor="#3730a3" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="9" fill={`url(#${gradient})`} />
        <path d="M7 11.5 16 22l9-10.5" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M11 9.5h10" fill="none" stroke="#c7d2fe" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      <span className={`text-lg font-bold tracking-tight ${tone === 'dark' ? 'text-ink-950' : 'text-white'}`}>{name}</span>
    </a>
  )
}
