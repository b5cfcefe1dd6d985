// Sending a form to the contact service from script: JSON (or multipart/form-data when it
// carries files, with upload progress), one Idempotency-Key per submission, and retries of
// network failures with exponential back-off.
import { contract } from '../../schema/contract'
import type { ErrorCode } from '../../schema/ErrorCode'

/** Name of the hidden field people leave empty and bots fill in (the service drops those). */
export const HONEYPOT_FIELD = contract.honeypot

/** A form's fields as the contract describes them, keyed by the names content uses. */
export type ContractFields = Record<string, { readonly name: string; readonly rule: string }>

/** The attributes of a text field's control that the contract fixes: name, required, limit. */
export function fieldAttributes(field: { readonly name: string; readonly required: boolean; readonly maxLength: number }) {
  return { name: field.name, required: field.required, maxLength: field.maxLength }
}

/** The JSON body the service receives: each field under its name, checkboxes as booleans. */
export function formBody(fields: ContractFields, data: FormData): Record<string, unknown> {
  return Object.fromEntries(
    Object.values(fields).map(({ name, rule }) => [name, rule === 'boolean' ? data.has(name) : String(data.get(name) ?? '')]),
  )
}

/** Attempts after the first when the network fails. */
export const MAX_RETRIES = 3
/** Longest wait between two attempts. */
export const MAX_RETRY_DELAY_MS = 30_000

/** Wait before retry number `retry` (0-based): 1 s, 2 s, 4 s ... capped at 30 s. */
export function retryDelay(retry: number): number {
  return Math.min(1000 * 2 ** retry, MAX_RETRY_DELAY_MS)
}

/** How a submission ended. */
export type SendResult =
  | { kind: 'sent' }
  /** The service rejected some fields: why, as an error code, keyed by field name. */
  | { kind: 'invalid'; fields: Record<string, ErrorCode> }
  | { kind: 'failed'; error: Error }

/** The URL of a form's endpoint (its contract `path`) below the service's base URL. */
export function endpointUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}

/** Where a page's forms are sent: the contact service, and the page's language. */
export type Endpoint = {
  /** Base URL of the contact service (`settings.contact_endpoint`). */
  url: string
  /** The page's language when it is not the site's default: the service then redirects to
   * that language's pages and writes the visitor's emails in it. */
  language?: string | undefined
}

/** The URL a form posts to: its endpoint, naming the page's language when it has to. */
export function formUrl(endpoint: Endpoint, path: string): string {
  const url = endpointUrl(endpoint.url, path)
  return endpoint.language ? `${url}?${contract.languageParam}=${encodeURIComponent(endpoint.language)}` : url
}

/** A random key identifying one submission across its retries. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  // Pages served over plain HTTP (not a secure context) lack randomUUID.
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Answers worth another attempt: the service or a proxy in front of it is briefly unavailable. */
const TRANSIENT_STATUS = new Set([408, 502, 503, 504])

export type SendOptions = {
  /** Waits between attempts; replaceable so unit tests need not wait. */
  sleep?: (ms: number) => Promise<void>
  fetch?: typeof fetch
}

/** What one attempt got back: the status and the JSON answer (null when not JSON). */
type Answer = { status: number; answer: { error?: unknown; fields?: unknown } | null }

/**
 * Posts `body` as JSON to `url`. Network failures and transient answers are retried up to
 * MAX_RETRIES times with the same Idempotency-Key, so the service sends one email at most.
 */
export async function sendForm(url: string, body: Record<string, unknown>, options: SendOptions = {}): Promise<SendResult> {
  const doFetch = options.fetch ?? fetch
  const payload = JSON.stringify(body)
  return withRetries(options.sleep, async (key) => {
    const response = await doFetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': key },
      body: payload,
    })
    return { status: response.status, answer: await readJson(response) }
  })
}

/** Posts a multipart body, calling back with the fraction sent so far; rejects on a network failure. */
export type Upload = (url: string, body: FormData, key: string, onProgress: (sent: number) => void) => Promise<Answer>

/** An upload through XMLHttpRequest, the browser API that reports an upload's progress. */
export const xhrUpload: Upload = (url, body, key, onProgress) =>
  new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', url)
    request.setRequestHeader('Accept', 'application/json')
    request.setRequestHeader('Idempotency-Key', key)
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    })
    request.addEventListener('load', () => {
      let answer: Answer['answer'] = null
      try {
        const value: unknown = JSON.parse(request.responseText)
        if (typeof value === 'object' && value !== null) answer = value
      } catch {
        // Not JSON: a proxy's page.
      }
      resolve({ status: request.status, answer })
    })
    request.addEventListener('error', () => reject(new TypeError('Failed to send')))
    request.addEventListener('abort', () => reject(new TypeError('The upload was aborted')))
    request.send(body)
  })

/**
 * Posts `body` (fields and files) as `multipart/form-data` to `url`, reporting the progress of
 * each attempt, with the same retries and Idempotency-Key as {@link sendForm}.
 */
export async function sendFiles(
  url: string,
  body: FormData,
  onProgress: (sent: number) => void,
  options: { sleep?: SendOptions['sleep']; upload?: Upload } = {},
): Promise<SendResult> {
  const upload = options.upload ?? xhrUpload
  return withRetries(options.sleep, (key) => {
    onProgress(0)
    return upload(url, body, key, onProgress)
  })
}

/** Runs `attempt` until it gets a definite answer, retrying failures and transient answers. */
async function withRetries(sleep: SendOptions['sleep'], attempt: (key: string) => Promise<Answer>): Promise<SendResult> {
  const wait = sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const key = newIdempotencyKey()
  let lastError = new Error('The form was not sent.')
  for (let tried = 0; tried <= MAX_RETRIES; tried++) {
    if (tried > 0) await wait(retryDelay(tried - 1))
    let response: Answer
    try {
      response = await attempt(key)
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error))
      continue
    }
    const { answer } = response
    if (response.status >= 200 && response.status < 300) return { kind: 'sent' }
    // 413 names the file field when a file passed a limit.
    if ((response.status === 422 || response.status === 413) && answer?.fields && typeof answer.fields === 'object') {
      return { kind: 'invalid', fields: errorCodes(answer.fields) }
    }
    lastError = new Error(
      `The contact service answered ${response.status}${typeof answer?.error === 'string' ? `: ${answer.error}` : ''}`,
    )
    if (!TRANSIENT_STATUS.has(response.status)) break
  }
  return { kind: 'failed', error: lastError }
}

async function readJson(response: Response): Promise<{ error?: unknown; fields?: unknown } | null> {
  try {
    const value: unknown = await response.json()
    return typeof value === 'object' && value !== null ? value : null
  } catch {
    return null
  }
}

const knownCodes: ReadonlySet<string> = new Set(contract.errorCodes)

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && knownCodes.has(code)
}

/** The code of each field error (`{ code, message }`) the site knows words for. */
function errorCodes(fields: object): Record<string, ErrorCode> {
  const result: Record<string, ErrorCode> = {}
  for (const [key, value] of Object.entries(fields)) {
    const code: unknown = typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined
    if (isErrorCode(code)) result[key] = code
  }
  return result
}
