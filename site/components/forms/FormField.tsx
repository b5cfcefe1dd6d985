import type { ReactNode } from 'react'
import { cx } from '../../lib/cx'

/** The attributes that tie a control to its label and its error message. */
export type ControlProps = {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

export type FormFieldProps = {
  /** Id of the control; the error message gets `<id>-error`. */
  id: string
  label: string
  /** Marker shown after the label of an optional field (such as "(optional)"). */
  optional?: string
  /** The message from the service for this field, shown under it. */
  error?: string
  className?: string
  /** Renders the control with the attributes it needs. */
  children: (control: ControlProps) => ReactNode
}

/** A label, its control and, when the service rejected the value, the reason under it. */
export function FormField({ id, label, optional, error, className, children }: FormFieldProps) {
  const errorId = `${id}-error`
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-ink-800">
        {label}
        {optional && <span className="ml-1 font-normal text-ink-600">{optional}</span>}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })}
      {error && (
        <p id={errorId} className="text-sm text-danger-700">
          {error}
        </p>
      )}
    </div>
  )
}
