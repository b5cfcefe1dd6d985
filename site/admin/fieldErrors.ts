// The mistakes of a refused save shown under the fields they concern, besides the notification
// that lists them all.
//
// `sitegen dev` validates a save as `sitegen validate` does (the whole site with the save in it)
// and refuses an invalid one with HTTP 422 and `{error, fields}`: `error` is every mistake as
// `file:line:col: message` (Decap shows it as its notification), `fields` each mistake of the
// files saved at its field (`sitegen/src/cms/placed.rs`): the field's path in the editor's
// document, its last name, its language and the value refused.
//
// Decap shows errors under a field when the field's control says it is not valid: a control's
// `isValid()` may answer `{error: {type, message}}`, and Decap asks every control when the author
// saves, and a control again when it calls the `validate` prop Decap gives it. So each built-in
// widget the configuration uses is registered again under its own name, wrapped in a control that
// answers the inner control's `isValid()`, or the server's refusal when one names this field with
// the value the field still holds. The answer is the last save's: one request per save attempt,
// the save itself; a field whose value changed is asked of the server again at the next save.
import CMS from 'decap-cms-app'
import { Component, createElement, type ComponentType } from 'react'

/** One mistake at its field, as `sitegen dev` answers a refused save. */
export interface FieldError {
  field: string
  name: string
  locale: string | null
  value: string | null
  location: string
  message: string
}

/** A field of the editor's configuration, as far as this module reads it. */
interface ConfigField {
  widget?: string
  fields?: ConfigField[]
  field?: ConfigField
}

/** The configuration `sitegen dev` generates, as far as this module reads it. */
export interface Config {
  backend: { name: string; proxy_url?: string }
  collections: { fields?: ConfigField[]; files?: { fields: ConfigField[] }[] }[]
}

/**
 * The widgets left unwrapped: the containers, whose controls hold other fields' and show no
 * value of their own, and the picture, whose control Decap wires to its media library through
 * the very control it registered (a wrapper cuts it off: no upload reaches the form).
 */
const UNWRAPPED = new Set(['object', 'list', 'image'])

/** Every widget the configuration's fields use whose control shows the server's mistakes. */
export function leafWidgets(config: Config): Set<string> {
  const found = new Set<string>()
  const walk = (fields: ConfigField[] = []) => {
    for (const field of fields) {
      if (field.widget && !UNWRAPPED.has(field.widget)) found.add(field.widget)
      walk(field.fields)
      if (field.field) walk([field.field])
    }
  }
  for (const collection of config.collections) {
    walk(collection.fields)
    for (const file of collection.files ?? []) walk(file.fields)
  }
  return found
}

let refused: FieldError[] = []
const listeners = new Set<() => void>()

function publish(errors: FieldError[]) {
  refused = errors
  for (const listener of listeners) listener()
}

/** The props of a control that say which field it is. */
interface ControlProps {
  field: { get(key: string): unknown }
  value: unknown
  locale?: string
  validate?: () => void
}

/** The server's mistake for the control with `props`, if the last save named this field. */
export function mistakeFor({ field, value, locale }: ControlProps): FieldError | undefined {
  const name = field.get('name')
  return refused.find(
    (error) =>
      error.name === name &&
      (error.locale === null || locale === undefined || error.locale === locale) &&
      (error.value === null || String(value ?? '') === error.value),
  )
}

/** `inner` with the server's mistakes about its field shown under it. */
function wrap(inner: ComponentType<ControlProps>): ComponentType<ControlProps> {
  return class FieldErrorControl extends Component<ControlProps> {
    inner: Record<string, unknown> | null = null
    stop = () => {}

    override componentDidMount() {
      const listener = () => {
        if (mistakeFor(this.props)) this.props.validate?.()
      }
      listeners.add(listener)
      this.stop = () => listeners.delete(listener)
    }

    override componentWillUnmount() {
      this.stop()
    }

    /** Asked by Decap at each save: the inner control's answer, else the server's. */
    isValid = () => {
      const own = typeof this.inner?.isValid === 'function' ? (this.inner.isValid as () => unknown)() : true
      if (own !== true && own !== undefined) return own
      const mistake = mistakeFor(this.props)
      if (!mistake) return true
      return { error: { type: 'CUSTOM', message: mistake.message } }
    }

    focus = (path?: string) => (this.inner?.focus as ((p?: string) => void) | undefined)?.(path)

    getValidateValue = () => (this.inner?.getValidateValue as (() => unknown) | undefined)?.()

    override render() {
      return createElement(inner, {
        ...this.props,
        ref: (ref: Record<string, unknown> | null) => {
          const wrapped = ref?.getWrappedInstance as (() => Record<string, unknown>) | undefined
          this.inner = wrapped ? wrapped.call(ref) : ref
        },
      } as ControlProps)
    }
  }
}

/** Watches the saves' answers: a refusal's field mistakes are shown, a save clears them. */
function watchSaves(api: string) {
  const fetch = window.fetch.bind(window)
  window.fetch = async (input, init) => {
    const response = await fetch(input, init)
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (new URL(url, location.href).pathname !== api || typeof init?.body !== 'string') return response
    const action = (JSON.parse(init.body) as { action?: string }).action
    if (action !== 'persistEntry') return response
    if (response.ok) publish([])
    else if (response.status === 422) {
      const answer = (await response.clone().json()) as { fields?: FieldError[] }
      publish(answer.fields ?? [])
    }
    return response
  }
}

/**
 * Installs the wrapped widgets and the watch of the saves to the configuration's `proxy_url`;
 * before `CMS.init`. Only `sitegen dev` (backend `proxy`) places a refusal's mistakes.
 */
export function showFieldErrors(config: Config) {
  const api = config.backend.name === 'proxy' ? config.backend.proxy_url : undefined
  if (!api) return
  for (const name of leafWidgets(config)) {
    const widget = CMS.getWidget(name) as { control?: unknown; preview?: unknown; schema?: unknown } | undefined
    if (!widget?.control || typeof widget.control === 'string') continue
    const register = CMS.registerWidget as (name: string, control: unknown, preview?: unknown, schema?: unknown) => void
    register(name, wrap(widget.control as ComponentType<ControlProps>), widget.preview, widget.schema)
  }
  watchSaves(new URL(api, location.href).pathname)
}
