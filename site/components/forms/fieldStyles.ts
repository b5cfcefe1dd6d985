import { cx } from '../../lib/cx'

/** Text inputs, text areas and selects: one look, a visible focus ring, a red edge when invalid. */
export function controlClasses(className?: string, display = 'block') {
  return cx(
    display,
    'w-full rounded-lg border border-ink-300 bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-xs',
    'placeholder:text-ink-500 transition-[border-color,box-shadow] duration-150',
    'focus:border-brand-600 focus:outline-none focus-visible:outline-none focus:ring-3 focus:ring-brand-600/25',
    'aria-invalid:border-danger-700 aria-invalid:focus:ring-danger-700/25',
    'disabled:cursor-not-allowed disabled:bg-ink-50',
    className,
  )
}

/**
 * A native `<select>` made customisable where the browser supports it (`appearance:
 * base-select`): the closed control matches the text inputs, the open list is styled and at
 * most `max-h-*` tall. Other browsers show their own list.
 */
export function selectClasses(className?: string) {
  return controlClasses(
    cx(
      'items-center justify-between gap-2 [appearance:base-select]',
      '[&::picker-icon]:text-xs [&::picker-icon]:text-ink-500',
      '[&::picker(select)]:[appearance:base-select] [&::picker(select)]:overflow-y-auto',
      '[&::picker(select)]:rounded-lg [&::picker(select)]:border [&::picker(select)]:border-ink-200',
      '[&::picker(select)]:bg-white [&::picker(select)]:p-1 [&::picker(select)]:shadow-elevated',
      '[&_option]:rounded-md [&_option]:px-2.5 [&_option]:py-1.5 [&_option]:text-sm',
      '[&_option:checked]:font-medium [&_option:focus-visible]:bg-brand-50 [&_option:hover]:bg-brand-50',
      className,
    ),
    'flex',
  )
}
