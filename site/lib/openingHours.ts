import type { HoursFormat } from '../schema/HoursFormat'
import type { OpeningHours } from '../schema/OpeningHours'
import type { Weekday } from '../schema/Weekday'

/** The days in the order `HoursFormat.days` names them (Monday first), as schema.org spells them. */
const WEEK: readonly Weekday[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

/**
 * `site.yaml`'s `contact.opening_hours` in the page's language (`dates.hours`): `Monday to
 * Friday, 9:00 to 18:00`, `Esmaspäev–reede kell 9.00–18.00`. The hours are stated once, as the
 * fields search engines read; this is their only sentence. A sentence starts with a capital
 * (Estonian names its days in lower case).
 */
export function openingHoursText(hours: readonly OpeningHours[], words: HoursFormat): string {
  const text = hours
    .map(({ days, opens, closes }) =>
      fill(words.format, { days: daysText(days, words), opens: time(opens, words), closes: time(closes, words) }),
    )
    .join('; ')
  return text.charAt(0).toLocaleUpperCase() + text.slice(1)
}

/** The days, each run of three or more in a row as a range (`Monday to Friday`), the rest by name. */
function daysText(days: readonly Weekday[], words: HoursFormat): string {
  const indices = [...new Set(days.map((day) => WEEK.indexOf(day)))].sort((a, b) => a - b)
  // Runs of consecutive days, as the index of their first and last day.
  const runs: { first: number; last: number }[] = []
  for (const i of indices) {
    const run = runs.at(-1)
    if (run && run.last === i - 1) run.last = i
    else runs.push({ first: i, last: i })
  }
  const name = (i: number) => words.days[i] ?? WEEK[i] ?? ''
  return runs
    .flatMap(({ first, last }) =>
      last - first >= 2
        ? [fill(words.day_range, { first: name(first), last: name(last) })]
        : Array.from({ length: last - first + 1 }, (_, k) => name(first + k)),
    )
    .join(', ')
}

/** A 24-hour `HH:MM` time as the language writes it (`9:00`, `9.00`). */
function time(clock: string, words: HoursFormat): string {
  const [hour = '', minute = ''] = clock.split(':')
  return fill(words.time, { hour: String(Number(hour)), minute })
}

/** `template` with each `{name}` replaced by its value. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
}
