import type { CheckboxField } from '../../schema/CheckboxField'
import { cx } from '../../lib/cx'

export type CheckboxProps = {
  id: string
  name: string
  field: CheckboxField
  error?: string
}

/** A checkbox with its label beside it, and a link (such as the privacy policy) after the label. */
export function Checkbox({ id, name, field, error }: CheckboxProps) {
  const errorId = `${id}-error`
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={cx(
            'mt-0.5 size-5 shrink-0 rounded border-ink-300 accent-brand-600',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
          )}
        />
        <label htmlFor={id} className="text-sm text-ink-700">
          {field.label}
          {field.link && (
            <>
              {' '}
              <a href={field.link.href} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
                {field.link.label}
              </a>
            </>
          )}
        </label>
      </div>
      {error && (
        <p id={errorId} className="pl-8 text-sm text-danger-700">
          {error}
        </p>
      )}
    </div>
  )
}
