import type { Country } from '../../schema/Country'
import type { ControlProps } from './FormField'
import { selectClasses } from './fieldStyles'

export type CountryCodeSelectProps = ControlProps & {
  /** The form field the dialling code is sent as. */
  name: string
  countries: Country[]
  /** The code selected at first (site.yaml's `country_code` of the page's language); the first
   * country's without it. */
  initial?: string | undefined
}

/**
 * The dialling-code dropdown: a native `<select>`, so it works before and without script and
 * keeps the platform's keyboard and screen-reader behaviour. Where the browser supports
 * customisable selects (`appearance: base-select`), the open list is styled and at most 300 px
 * tall; elsewhere the operating system's list is used. Several countries share a code
 * (+1, +7): each keeps its own option, the code is what is sent.
 */
export function CountryCodeSelect({ name, countries, initial, ...control }: CountryCodeSelectProps) {
  return (
    <select
      {...control}
      name={name}
      defaultValue={initial}
      autoComplete="tel-country-code"
      className={selectClasses('[&::picker(select)]:max-h-[300px]')}
    >
      {countries.map((country) => (
        <option key={country.name} value={country.code}>
          {country.code} {country.name}
        </option>
      ))}
    </select>
  )
}
