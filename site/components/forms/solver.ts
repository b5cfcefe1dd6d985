// Runs in a Web Worker (proofOfWork.ts starts it), so the page stays responsive while
// thousands of hashes are computed: finds the number whose SHA-256 after the salt is the
// challenge, and posts it back, or null when none up to `maxnumber` is.

/** What the page asks the worker to solve: the parts of the service's challenge it needs. */
export type SolverTask = { challenge: string; salt: string; maxnumber: number }

self.onmessage = async ({ data }: MessageEvent<SolverTask>) => {
  const encoder = new TextEncoder()
  for (let number = 0; number <= data.maxnumber; number++) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(data.salt + number)))
    if (hex(digest) === data.challenge) return self.postMessage(number)
  }
  self.postMessage(null)
}

function hex(bytes: Uint8Array): string {
  let text = ''
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0')
  return text
}
