// Sending a form to the contact service from script: JSON, one Idempotency-Key per
// submission, and retries of network failures with exponential back-off.
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

/**
 * Posts `body` as JSON to `url`. Network failures and transient answers are retried up to
 * MAX_RETRIES times with the same Idempotency-Key, so the service sends one email at most.
 */
export async function sendForm(url: string, body: Record<string, unknown>, options: SendOptions = {}): Promise<SendResult> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const doFetch = options.fetch ?? fetch
  const key = newIdempotencyKey()
  const payload = JSON.stringify(body)
  let lastError = new Error('The form was not sent.')
  for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
    if (attempt > 0) await sleep(retryDelay(attempt - 1))
    let response: Response
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': key },
        body: payload,
      })
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error))
      continue
    }
    if (response.ok) return { kind: 'sent' }
    const answer = await readJson(response)
    if (response.status === 422 && answer?.fields && typeof answer.fields === 'object') {
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
