// Starts `sitegen dev` against a temporary copy of content/ and stops it again, for the dev tests
// and the reload benchmark.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestInfo } from '@playwright/test'

const repo = path.resolve(import.meta.dirname, '../..')

export interface DevServer {
  /** The URL `sitegen dev` printed. */
  url: string
  /** When it was started, on `performance.now()`'s clock. */
  startedAt: number
  /** The temporary content directory it serves. */
  contentDir: string
  /** Everything it printed so far. */
  output(): string
  /** Rewrites `rel` (under the content directory) with `edit` applied to its text. */
  edit(rel: string, edit: (text: string) => string): void
  /** Writes a new file `rel` under the content directory. */
  write(rel: string, text: string): void
  /** `LINE:COL` (1-based) of the first occurrence of `needle` in `rel`. */
  position(rel: string, needle: string): string
  /** The ids of every process it started, alive now. */
  processes(): number[]
  /**
   * The resident memory of `sitegen dev` and every process it started, in MB: now (`VmRSS`)
   * and the sum of each process's peak (`VmHWM`).
   */
  memory(): { now: number; peak: number }
  /** Sends SIGTERM and waits for it to exit. */
  stop(): Promise<void>
}

export interface DevOptions {
  /**
   * Generated articles to add to the copy of content/, written by the generator of the
   * benchmarks (sitegen's `scale` example, built beside the binary).
   */
  articles?: number
}

/** What every `sitegen dev` started by this process printed, for the report of a failed test. */
export const started: { output(): string }[] = []

/**
 * For `test.afterEach`: a failed test's report carries what each `sitegen dev` it started
 * printed.
 */
export async function attachDevOutput({}, info: TestInfo) {
  const servers = started.splice(0)
  if (info.status === info.expectedStatus) return
  for (const [i, dev] of servers.entries()) await info.attach(`sitegen dev output ${i + 1}`, { body: dev.output() })
}

/** Starts `sitegen dev --port 0` (the binary is `$SITEGEN_BIN`, else target/debug/sitegen). */
export async function startDev({ articles = 0 }: DevOptions = {}): Promise<DevServer> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'sitegen-dev-test-'))
  const contentDir = path.join(scratch, 'content')
  const bin = process.env.SITEGEN_BIN || path.join(repo, 'target/debug/sitegen')
  if (articles > 0) {
    const scale = path.join(path.dirname(bin), 'examples/scale')
    execFileSync(scale, [bin, '--write-content', contentDir, '--articles', String(articles)], { cwd: repo })
  } else {
    cpSync(path.join(repo, 'content'), contentDir, { recursive: true })
  }
  const startedAt = performance.now()
  const child = spawn(bin, ['dev', '--port', '0', '--content', contentDir, '--site', path.join(repo, 'site')], {
    cwd: repo,
    // contact-fn keeps its outbox and mail in the scratch directory, not in var/.
    env: { ...process.env, CONTACT_DATA_DIR: path.join(scratch, 'contact-fn') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  started.push({ output: () => output })
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sitegen dev printed no URL:\n${output}`)), 300_000)
    const look = () => {
      const match = /sitegen dev: (http:\/\/\S+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout.on('data', look)
    child.once('exit', (code) => reject(new Error(`sitegen dev exited (${code}):\n${output}`)))
  })

  return {
    url,
    startedAt,
    contentDir,
    output: () => output,
    edit(rel, edit) {
      const file = path.join(contentDir, rel)
      writeFileSync(file, edit(readFileSync(file, 'utf8')))
    },
    write(rel, text) {
      writeFileSync(path.join(contentDir, rel), text)
    },
    position(rel, needle) {
      const text = readFileSync(path.join(contentDir, rel), 'utf8')
      const before = text.slice(0, text.indexOf(needle)).split('\n')
      return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`
    },
    processes: () => descendants(child),
    memory() {
      let now = 0
      let peak = 0
      for (const pid of [child.pid ?? 0, ...descendants(child)]) {
        try {
          const status = readFileSync(`/proc/${pid}/status`, 'utf8')
          const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0)
          now += kb('VmRSS')
          peak += kb('VmHWM')
        } catch {
          // The process ended while we looked.
        }
      }
      return { now: now / 1024, peak: peak / 1024 }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      rmSync(scratch, { recursive: true, force: true })
    },
  }
}

/** Every live process below `child` (its children, theirs, ...), from /proc. */
function descendants(child: ChildProcess): number[] {
  const parents = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // /proc/PID/stat: `pid (comm) state ppid ...`; comm may hold spaces, so split after `)`.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(Number(entry), ppid)
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = []
  const queue = child.pid ? [child.pid] : []
  while (queue.length > 0) {
    const pid = queue.shift() as number
    for (const [candidate, parent] of parents) {
      if (parent === pid) {
        found.push(candidate)
        queue.push(candidate)
      }
    }
  }
  return found
}

/** Whether process `pid` still runs (a zombie waiting to be reaped does not). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
