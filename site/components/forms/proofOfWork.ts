// The proof of work the contact service asks of a form (ALTCHA's format): fetch a challenge,
// solve it in a Web Worker, and send the solution in the contract's `altcha` field. Anything
// that goes wrong yields no solution: the form is sent without it and the service labels the
// message as unverified, so a visitor is never kept from sending.
import { contract } from '../../schema/contract'
import { endpointUrl } from './sendForm'
import type { SolverTask } from './solver'

/** Name of the field carrying the solution. */
export const ALTCHA_FIELD = contract.altcha

/** A challenge as `GET /challenge` answers it. */
type Challenge = SolverTask & { algorithm: string; signature: string }

/** The only algorithm the service offers and the worker solves. */
const ALGORITHM = 'SHA-256'

/**
 * The value of the `altcha` field for one submission, or null when the service asks for no
 * proof of work (404), cannot be reached, or the challenge cannot be solved here.
 */
export async function solveChallenge(endpoint: string, doFetch: typeof fetch = fetch): Promise<string | null> {
  try {
    const response = await doFetch(endpointUrl(endpoint, contract.challengePath), { headers: { Accept: 'application/json' } })
    if (!response.ok) return null
    const challenge = (await response.json()) as Challenge
    if (challenge.algorithm !== ALGORITHM) return null
    const number = await solveInWorker(challenge)
    if (number === null) return null
    const { algorithm, salt, signature } = challenge
    return btoa(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }))
  } catch (error) {
    console.warn('The proof of work could not be done; the form is sent without it:', error)
    return null
  }
}

function solveInWorker({ challenge, salt, maxnumber }: Challenge): Promise<number | null> {
  return new Promise((resolve, reject) => {
    // A module worker from the site's own origin: the policy's script-src 'self' admits it.
    const worker = new Worker(new URL('./solver.ts', import.meta.url), { type: 'module' })
    worker.onmessage = ({ data }: MessageEvent<unknown>) => {
      worker.terminate()
      resolve(typeof data === 'number' ? data : null)
    }
    worker.onerror = (event) => {
      worker.terminate()
      reject(new Error(event.message || 'the solver failed'))
    }
    const task: SolverTask = { challenge, salt, maxnumber }
    worker.postMessage(task)
  })
}
