import { cx } from '../../lib/cx'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'inverse' | 'inverse-outline'
export type ButtonSize = 'md' | 'lg'

const base =
  'inline-flex items-center justify-center gap-2 rounded-full font-semibold whitespace-nowrap ' +
  'transition-[background-color,box-shadow,color,transform] duration-200 ' +
  'disabled:pointer-events-none disabled:opacity-60 [&>svg]:size-4 [&>svg]:shrink-0'

const variants: Record<ButtonVariant, string> = {
  // White on brand-600: 6.3:1.
  primary: 'bg-brand-600 text-white shadow-brand hover:bg-brand-700 active:translate-y-px',
  secondary: 'bg-white text-ink-900 ring-1 ring-ink-200 ring-inset shadow-xs hover:bg-ink-50 hover:ring-ink-300',
  ghost: 'text-ink-800 hover:bg-ink-100',
  // For dark and brand sections.
  inverse: 'bg-white text-brand-800 hover:bg-brand-50',
  'inverse-outline': 'text-white ring-1 ring-white/40 ring-inset hover:bg-white/10',
}

const sizes: Record<ButtonSize, string> = {
  md: 'h-10 px-5 text-sm',
  lg: 'h-12 px-6 text-base',
}

/** Class names shared by `Button` and `ActionLink`, so links and buttons look alike. */
export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string) {
  return cx(base, variants[variant], sizes[size], className)
}
