import type { ChoiceField } from '../../schema/ChoiceField'
import type { ControlProps } from './FormField'
import { selectClasses } from './fieldStyles'

export type ChoiceSelectProps<T extends string> = ControlProps & {
  name: string
  /** The answers the contact service accepts, in display order (from the form contract). */
  values: readonly T[]
  /** The label, placeholder and the words of each answer, from content. */
  field: ChoiceField<T>
}

/** A dropdown of fixed answers, led by an empty choice that sends nothing. */
export function ChoiceSelect<T extends string>({ field, name, values, ...control }: ChoiceSelectProps<T>) {
  return (
    <select {...control} name={name} defaultValue="" className={selectClasses()}>
      <option value="">{field.placeholder}</option>
      {values.map((value) => (
        <option key={value} value={value}>
          {field.options[value]}
        </option>
      ))}
    </select>
  )
}
