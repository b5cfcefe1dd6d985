// The real parts the form tests talk to: a contact-fn process started from the workspace's
// build, delivering to a real SMTP server (smtp-server, in the Playwright runner) that writes
// every message it receives as an `.eml` file. Global setup starts both; the tests read the
// mail folder and may stop and restart contact-fn.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import PostalMime, { type Email } from 'postal-mime'

const repo = path.resolve(import.meta.dirname, '../../..')

/** Port contact-fn listens on; the site under test is built against it (see the Makefile). */
export const contactPort = Number(process.env.E2E_CONTACT_PORT || 4318)
/** Base URL of the contact service the site under test posts to. */
export const contactEndpoint = `http://127.0.0.1:${contactPort}`

/** Working folder of the forms' test services (mail, outbox, log); E2E_FORMS_DIR moves it. */
const e2eDir = path.resolve(repo, process.env.E2E_FORMS_DIR || 'target/e2e')
/** Where the SMTP server writes each message it accepts. */
export const mailDir = path.join(e2eDir, 'smtp-inbox')
const stateFile = path.join(e2eDir, 'contact-fn.json')
const logFile = path.join(e2eDir, 'contact-fn.log')
const binary = path.join(repo, 'target/debug/contact-fn')
/** contact-fn's data folder: outbox, subscribers. */
const dataDir = path.join(e2eDir, 'contact-fn')

/** What a restarted contact-fn needs to know, shared through a file with the test workers. */
type State = { pid: number; smtpPort: number; siteOrigin: string }

function readState(): State {
  return JSON.parse(readFileSync(stateFile, 'utf8')) as State
}

/**
 * Starts contact-fn with the SMTP server at `smtpPort`, browser calls allowed from
 * `siteOrigin`, plain form posts redirected to that site's result pages, fast delivery
 * retries and a rate limit no test run reaches. Resolves once it answers /readyz.
 */
export async function startContactFn(smtpPort: number, siteOrigin: string): Promise<ChildProcess> {
  if (await answers(`${contactEndpoint}/healthz`)) {
    throw new Error(
      `Something already listens on ${contactEndpoint} (a contact-fn left from an earlier run?). ` +
        'Stop it, or choose another port with E2E_CONTACT_PORT (and build the site against it).',
    )
  }
  mkdirSync(e2eDir, { recursive: true })
  const log = openSync(logFile, 'a')
  const child = spawn(
    binary,
    [
      ['--bind', `127.0.0.1:${contactPort}`],
      ['--data-dir', dataDir],
      ['--smtp-url', `smtp://127.0.0.1:${smtpPort}`],
      ['--smtp-timeout', '5s'],
      ['--allowed-origins', siteOrigin],
      ['--site-url', siteOrigin],
      ['--retry-initial', '500ms'],
      ['--retry-max', '2s'],
      ['--rate-burst', '10000'],
      ['--rate-refill', '1ms'],
      ['--shutdown-grace', '2s'],
    ].flat(),
    // Its own process group: it outlives the test worker that restarts it.
    { detached: true, stdio: ['ignore', log, log], env: { PATH: process.env.PATH ?? '', RUST_LOG: 'info' } },
  )
  child.unref()
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`contact-fn exited with ${code}; see ${logFile}`))),
  )
  const spawnFailed = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`cannot start ${binary} (run \`make test-browser\`): ${error.message}`))),
  )
  // Once ready, a later exit (the tests stop it) is no longer an error.
  exited.catch(() => {})
  spawnFailed.catch(() => {})
  await Promise.race([waitUntilReady(), exited, spawnFailed])
  if (child.pid === undefined) throw new Error(`cannot start ${binary}`)
  writeFileSync(stateFile, JSON.stringify({ pid: child.pid, smtpPort, siteOrigin } satisfies State))
  return child
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url)
    return true
  } catch {
    return false
  }
}

async function waitUntilReady() {
  for (let i = 0; i < 400; i++) {
    try {
      const response = await fetch(`${contactEndpoint}/readyz`)
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`contact-fn did not become ready on ${contactEndpoint}; see ${logFile}`)
}

/** Stops contact-fn (SIGTERM, a graceful shutdown) and resolves once the process is gone. */
export async function stopContactFn() {
  const { pid } = readState()
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    return // Already gone.
  }
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0)
    } catch {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`contact-fn (pid ${pid}) did not stop; see ${logFile}`)
}

/**
 * Stops a contact-fn that an interrupted run left behind (its runner was killed before the
 * teardown), recognised by the pid in the state file and its command line.
 */
export async function stopLeftoverContactFn() {
  let pid: number
  try {
    pid = readState().pid
  } catch {
    return // No earlier run.
  }
  let command = ''
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  } catch {
    return // Not running (or no /proc to tell).
  }
  if (command.startsWith(binary)) await stopContactFn()
}

/** Starts contact-fn again with the settings of the running test environment. */
export async function restartContactFn() {
  const { smtpPort, siteOrigin } = readState()
  await startContactFn(smtpPort, siteOrigin)
}

/** Messages still waiting in contact-fn's outbox. */
export async function queuedMessages(): Promise<number> {
  const response = await fetch(`${contactEndpoint}/readyz`)
  const body = (await response.json()) as { queued: number }
  return body.queued
}

/** Every message the SMTP server received so far, parsed. */
export async function receivedMail(): Promise<Email[]> {
  const files = readdirSync(mailDir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
  return Promise.all(files.map((name) => PostalMime.parse(readFileSync(path.join(mailDir, name)))))
}

/** The received messages whose plain-text body contains `marker`. */
export async function mailContaining(marker: string): Promise<Email[]> {
  return (await receivedMail()).filter((mail) => mail.text?.includes(marker))
}

/** What `contact-fn subscribers export` writes: the confirmed subscribers as CSV. */
export function exportedSubscribers(): string {
  return execFileSync(binary, ['--data-dir', dataDir, 'subscribers', 'export'], { encoding: 'utf8' })
}
