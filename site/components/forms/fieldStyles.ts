import { cx } from '../../lib/cx'

/** Text inputs, text areas and selects: one look, a visible focus ring, a red edge when invalid. */
export function controlClasses(className?: string) {
  return cx(
    'block w-full rounded-lg border border-ink-300 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-xs',
    'placeholder:text-ink-500 transition-[border-color,box-shadow] duration-150',
    'focus:border-brand-600 focus:outline-none focus-visible:outline-none focus:ring-3 focus:ring-brand-600/25',
    'aria-invalid:border-danger-700 aria-invalid:focus:ring-danger-700/25',
    'disabled:cursor-not-allowed disabled:bg-ink-50',
    className,
  )
}
