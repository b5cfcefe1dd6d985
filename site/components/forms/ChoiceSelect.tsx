import type { ChoiceField } from '../../schema/ChoiceField'
import type { ControlProps } from './FormField'
import { selectClasses } from './fieldStyles'

/** A dropdown of fixed answers, led by an empty choice that sends nothing. */
export function ChoiceSelect({ field, name, ...control }: ControlProps & { field: ChoiceField; name: string }) {
  return (
    <select {...control} name={name} defaultValue="" className={selectClasses()}>
      <option value="">{field.placeholder}</option>
      {field.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  )
}
