import { type FormEvent, useEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import type { ErrorCode } from '../../schema/ErrorCode'
import type { FormMessages } from '../../schema/FormMessages'
import { ALTCHA_FIELD, solveChallenge } from './proofOfWork'
import { type ContractFields, type Endpoint, HONEYPOT_FIELD, formBody, formUrl, sendFiles, sendForm } from './sendForm'
import { preloadToasts, showToast } from './toast'

export type FormSubmission = {
  /** True while the message is on its way (the button reads "Sending..." and is disabled). */
  sending: boolean
  /** What each rejected field says (the words content gives its error code), keyed by field name. */
  errors: Record<string, string>
  /** The notice announced when fields were rejected, else null. */
  notice: string | null
  /** How much of the files went out (0 to 1) while a form with files is sent, else null. */
  progress: number | null
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  /** Forgets a field's error once the visitor edits it (the form's `onChange`). */
  onChange: (event: FormEvent<HTMLFormElement>) => void
}

export type SubmissionOptions = {
  /** The contact service, and the page's language. */
  endpoint: Endpoint
  /** The form's contract: its path and its fields, whose values are sent. */
  form: { readonly path: string; readonly fields: ContractFields }
  messages: FormMessages
  /** Called after a successful send, once the form element was reset. */
  onReset?: () => void
  /** The name of the form's file field, if it has one: with files chosen, the form is sent as
   * `multipart/form-data` with its upload's progress. */
  files?: string
}

/**
 * Sends a form from script instead of the browser's plain post: stays on the page, shows a
 * toast, resets the form on success, keeps the values on failure and marks rejected fields.
 * Without script, the same form posts to the same URL and the service redirects. The toast
 * library loads as soon as the visitor edits a field, so the toast is ready when the answer comes.
 * The proof of work starts when the island loads, while the visitor is still typing, and again
 * after each message sent (a solution counts once).
 */
export function useFormSubmission({ endpoint, form: contract, messages, onReset, files }: SubmissionOptions): FormSubmission {
  const [sending, setSending] = useState(false)
  const [progress, setProgress] = useState<number | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [notice, setNotice] = useState<string | null>(null)
  const solution = useRef<Promise<string | null> | null>(null)
  const service = endpoint.url
  useEffect(() => {
    solution.current = solveChallenge(service)
  }, [service])

  async function submit(form: HTMLFormElement) {
    setSending(true)
    setNotice(null)
    const data = new FormData(form)
    const body = formBody(contract.fields, data)
    const honeypot = data.get(HONEYPOT_FIELD)
    if (typeof honeypot === 'string' && honeypot !== '') body[HONEYPOT_FIELD] = honeypot
    const altcha = await (solution.current ?? solveChallenge(service))
    if (altcha !== null) body[ALTCHA_FIELD] = altcha
    const url = formUrl(endpoint, contract.path)
    const chosen = files ? data.getAll(files).filter((value): value is File => value instanceof File && value.name !== '') : []
    let result
    if (files && chosen.length > 0) {
      const multipart = new FormData()
      for (const [name, value] of Object.entries(body)) multipart.append(name, String(value))
      for (const file of chosen) multipart.append(files, file, file.name)
      result = await sendFiles(url, multipart, setProgress)
      setProgress(null)
    } else {
      result = await sendForm(url, body)
    }
    setSending(false)
    switch (result.kind) {
      case 'sent':
        solution.current = solveChallenge(service)
        form.reset()
        onReset?.()
        setErrors({})
        void showToast('success', messages.success.title, messages.success.description)
        break
      case 'invalid': {
        // Rendered before the focus moves, so the field is announced with its message.
        flushSync(() => {
          setErrors(wordsFor(result.fields, messages))
          setNotice(messages.invalid)
        })
        void showToast('error', messages.failure.title, messages.failure.description)
        console.error('The contact service rejected the form:', result.fields)
        // Take the visitor to the first field to correct; its message is its description.
        const first = Array.from(form.elements).find(
          (element): element is HTMLElement =>
            element instanceof HTMLElement && 'name' in element && String(element.name) in result.fields,
        )
        first?.focus()
        break
      }
      case 'failed':
        setErrors({})
        void showToast('error', messages.failure.title, messages.failure.description)
        console.error('The message could not be sent:', result.error)
        break
    }
  }

  return {
    sending,
    errors,
    notice,
    progress,
    onSubmit: (event) => {
      event.preventDefault()
      preloadToasts()
      if (sending) return
      void submit(event.currentTarget)
    },
    onChange: (event) => {
      preloadToasts()
      const name = (event.target as { name?: unknown }).name
      if (typeof name === 'string' && name in errors) {
        setErrors(({ [name]: _edited, ...rest }) => rest)
      }
    },
  }
}

/** The words content gives each field's error code. */
function wordsFor(codes: Record<string, ErrorCode>, messages: FormMessages): Record<string, string> {
  return Object.fromEntries(
    // sitegen validate ensures every code has its words; the notice is only a safety net.
    Object.entries(codes).map(([field, code]) => [field, messages.errors[code] ?? messages.invalid]),
  )
}
