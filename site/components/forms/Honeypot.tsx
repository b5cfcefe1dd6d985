import { HONEYPOT_FIELD } from './sendForm'

/**
 * A field people never see and form-filling bots fill in; the service drops submissions that
 * carry a value in it. Hidden from sight, from assistive technology and from the tab order.
 */
export function Honeypot({ id, label }: { id: string; label: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  )
}
