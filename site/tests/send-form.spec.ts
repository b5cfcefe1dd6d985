import { expect, test } from '@playwright/test'
import { addFiles } from '../components/forms/attachments'
import { MAX_RETRIES, type Upload, endpointUrl, formBody, formUrl, retryDelay, sendFiles, sendForm } from '../components/forms/sendForm'
import { contract } from '../schema/contract'

// Unit tests of the forms' sending rules, with a scripted fetch (no browser, no network).
// forms.spec.ts sends the forms for real.

type Call = { url: string; key: string | null; body: string }

/** A fetch that answers from `script` in turn (an Error is thrown, like a network failure). */
function scriptedFetch(script: Array<Response | Error>) {
  const calls: Call[] = []
  const fetch = async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: String(url),
      key: new Headers(init?.headers).get('Idempotency-Key'),
      body: String(init?.body),
    })
    const next = script.shift()
    if (!next) throw new Error('fetch called more often than scripted')
    if (next instanceof Error) throw next
    return next
  }
  return { fetch: fetch as typeof globalThis.fetch, calls }
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

function recordSleeps() {
  const waits: number[] = []
  return { waits, sleep: async (ms: number) => void waits.push(ms) }
}

test('the retry delay doubles from one second and stops growing at 30 seconds', () => {
  expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
})

test('a form on a page in another language names it in its address; the default language adds nothing', () => {
  const url = 'https://api.example.com/contact/'
  expect(formUrl({ url }, contract.contact.path)).toBe('https://api.example.com/contact/send-contact-email')
  expect(formUrl({ url, language: 'et' }, contract.contact.path)).toBe(
    `https://api.example.com/contact/send-contact-email?${contract.languageParam}=et`,
  )
  expect(formUrl({ url, language: 'pt-BR' }, contract.newsletter.path)).toBe(
    `https://api.example.com/contact/subscribe?${contract.languageParam}=pt-BR`,
  )
})

test('endpoint URLs join the base and the path with one slash', () => {
  expect(endpointUrl('http://127.0.0.1:8787', 'send-enquiry')).toBe('http://127.0.0.1:8787/send-enquiry')
  expect(endpointUrl('https://api.example.com/contact/', 'send-contact-email')).toBe(
    'https://api.example.com/contact/send-contact-email',
  )
  expect(endpointUrl('https://api.example.com/contact/', contract.contact.path)).toBe(
    `https://api.example.com/contact${contract.contact.path}`,
  )
})

test('network failures are retried three times with the same Idempotency-Key, then reported', async () => {
  const { fetch, calls } = scriptedFetch(Array.from({ length: MAX_RETRIES + 1 }, () => new TypeError('Failed to fetch')))
  const { waits, sleep } = recordSleeps()
  const result = await sendForm('http://service/send-contact-email', { name: 'Ada' }, { fetch, sleep })

  expect(result.kind).toBe('failed')
  expect(result.kind === 'failed' && result.error.message).toBe('Failed to fetch')
  expect(calls).toHaveLength(4)
  expect(new Set(calls.map((c) => c.key)).size).toBe(1)
  expect(calls[0]?.key).toBeTruthy()
  expect(waits).toEqual([1000, 2000, 4000])
  expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ name: 'Ada' })
})

test('a retry that gets through ends the submission as sent', async () => {
  const { fetch, calls } = scriptedFetch([new TypeError('Failed to fetch'), json(503, { error: 'busy' }), json(200, { ok: true })])
  const { sleep } = recordSleeps()
  expect(await sendForm('http://service/x', {}, { fetch, sleep })).toEqual({ kind: 'sent' })
  expect(calls).toHaveLength(3)
  expect(new Set(calls.map((c) => c.key)).size).toBe(1)
})

test('each submission gets its own Idempotency-Key', async () => {
  const { fetch, calls } = scriptedFetch([json(200, { ok: true }), json(200, { ok: true })])
  await sendForm('http://service/x', {}, { fetch })
  await sendForm('http://service/x', {}, { fetch })
  expect(calls[0]?.key).not.toBe(calls[1]?.key)
})

test('rejected fields are returned by name with their error code, without retrying', async () => {
  const { fetch, calls } = scriptedFetch([
    json(422, {
      error: 'Some fields need attention.',
      fields: {
        phone: { code: 'required', message: 'Phone number is required.' },
        email: 7,
        name: { code: 'no_such_code', message: 'Unknown to the site.' },
      },
    }),
  ])
  expect(await sendForm('http://service/x', {}, { fetch })).toEqual({
    kind: 'invalid',
    fields: { phone: 'required' },
  })
  expect(calls).toHaveLength(1)
})

test('the body holds every contract field under its name, checkboxes as booleans', () => {
  const data = new FormData()
  data.set(contract.enquiry.fields.first_name.name, 'Grace')
  data.set(contract.enquiry.fields.privacy.name, 'on')
  const body = formBody(contract.enquiry.fields, data)
  expect(Object.keys(body)).toEqual(Object.values(contract.enquiry.fields).map((field) => field.name))
  expect(body[contract.enquiry.fields.first_name.name]).toBe('Grace')
  expect(body[contract.enquiry.fields.last_name.name]).toBe('')
  expect(body[contract.enquiry.fields.privacy.name]).toBe(true)
  expect(body[contract.enquiry.fields.newsletter.name]).toBe(false)
})

test('a definite refusal is reported at once with the service\'s reason', async () => {
  const { fetch, calls } = scriptedFetch([json(429, { error: 'Too many submissions' })])
  const result = await sendForm('http://service/x', {}, { fetch })
  expect(result.kind === 'failed' && result.error.message).toBe('The contact service answered 429: Too many submissions')
  expect(calls).toHaveLength(1)
})

test('an answer that is not JSON is a failure, not a crash', async () => {
  const { fetch } = scriptedFetch([new Response('<html>Bad gateway</html>', { status: 500 })])
  const result = await sendForm('http://service/x', {}, { fetch })
  expect(result.kind === 'failed' && result.error.message).toBe('The contact service answered 500')
})

test('files go as multipart with one Idempotency-Key across retries, progress reported, a refused file named by its code', async () => {
  const keys: string[] = []
  const progress: number[] = []
  const script = [new TypeError('Failed to send'), { status: 413, answer: { error: 'too large', fields: { attachments: { code: 'file_too_large', message: '"a.pdf" is larger than 10 MB' } } } }]
  const upload: Upload = async (_url, _body, key, onProgress) => {
    keys.push(key)
    onProgress(0.5)
    const next = script.shift()
    if (next instanceof Error) throw next
    if (!next) throw new Error('upload called more often than scripted')
    return next
  }
  const { sleep } = recordSleeps()
  const result = await sendFiles('http://service/x', new FormData(), (sent) => progress.push(sent), { upload, sleep })
  expect(result).toEqual({ kind: 'invalid', fields: { attachments: 'file_too_large' } })
  expect(keys).toHaveLength(2)
  expect(new Set(keys).size).toBe(1)
  expect(progress).toEqual([0, 0.5, 0, 0.5])
})

test('files are refused before sending by kind, size, count and total, with the contract\'s codes', () => {
  const file = (name: string, size: number, type = '') => new File([new Uint8Array(size)], name, { type })
  const max = contract.attachments.maxFileBytes
  const first = addFiles([], [file('a.pdf', max), file('b.exe', 10), file('c.PNG', max + 1), file('d.txt', 1)])
  expect(first.files.map((f) => f.name)).toEqual(['a.pdf', 'd.txt'])
  expect(first.refused).toEqual([
    { name: 'b.exe', code: 'file_type' },
    { name: 'c.PNG', code: 'file_too_large' },
  ])
  const second = addFiles(first.files, [file('e.docx', max), file('f.odt', 5)])
  expect(second.refused).toEqual([{ name: 'e.docx', code: 'files_too_large' }])
  expect(second.files).toHaveLength(3)
  expect(addFiles(second.files, [file('g.txt', 1)]).refused).toEqual([{ name: 'g.txt', code: 'too_many_files' }])
})
