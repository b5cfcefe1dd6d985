import type { Country } from '../../schema/Country'
import type { ControlProps } from './FormField'
import { controlClasses } from './fieldStyles'

/** Dialling code preselected in the contact form. */
export const DEFAULT_COUNTRY_CODE = '+49'

export type CountryCodeSelectProps = ControlProps & {
  name: string
  countries: Country[]
  disabled?: boolean
}

/**
 * The dialling-code dropdown: a native `<select>`, so it works before and without script.
 * Several countries share a code (+1, +7); each keeps its own option.
 */
export function CountryCodeSelect({ name, countries, disabled, ...control }: CountryCodeSelectProps) {
  return (
    <select
      {...control}
      name={name}
      defaultValue={DEFAULT_COUNTRY_CODE}
      autoComplete="tel-country-code"
      disabled={disabled}
      className={controlClasses('pr-8')}
    >
      {countries.map((country) => (
        <option key={country.name} value={country.code}>
          {country.code} {country.name}
        </option>
      ))}
    </select>
  )
}
