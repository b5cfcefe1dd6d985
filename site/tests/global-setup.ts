// Starts the real parts behind the forms before any test runs: an SMTP server that keeps
// every message it receives as an `.eml` file, and contact-fn delivering to it. The site
// under test must have been built against the same contact-fn (`make test-browser` does it).
// When it was not (a page author's own build), the form tests are skipped with the reason,
// unless E2E_FORMS=required (set by the Makefile), which makes it an error.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { FullConfig } from '@playwright/test'
import { SMTPServer } from 'smtp-server'
import { contactEndpoint, mailDir, startContactFn, stopContactFn, stopLeftoverContactFn } from './support/formsEnv'

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL
  if (!baseURL) throw new Error('playwright.config.ts must set use.baseURL')
  const siteOrigin = new URL(baseURL).origin
  const problem = siteEndpointProblem(config)
  if (problem) {
    if (process.env.E2E_FORMS === 'required') throw new Error(problem)
    // Read by forms.spec.ts in the workers, which inherit this environment.
    process.env.E2E_FORMS_SKIP = problem
    console.warn(`Skipping the form tests: ${problem}`)
    return
  }

  await stopLeftoverContactFn()
  rmSync(mailDir, { recursive: true, force: true })
  rmSync(path.resolve(mailDir, '../contact-fn'), { recursive: true, force: true })
  mkdirSync(mailDir, { recursive: true })

  let received = 0
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        // Written whole, then renamed, so a test never reads half a message.
        const name = `${Date.now()}-${String(++received).padStart(4, '0')}.eml`
        const partial = path.join(mailDir, `.${name}.partial`)
        writeFileSync(partial, Buffer.concat(chunks))
        renameSync(partial, path.join(mailDir, name))
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject)
    smtp.listen(0, '127.0.0.1', () => resolve())
  })
  const smtpPort = (smtp.server.address() as AddressInfo).port

  try {
    await startContactFn(smtpPort, siteOrigin)
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
    throw error
  }

  return async () => {
    await stopContactFn()
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
  }
}

/** Why the site under test cannot reach the test contact service, with the fix; or null. */
function siteEndpointProblem(config: FullConfig): string | null {
  const server = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer
  const distDir = /serve\s+(\S+)/.exec(String(server?.command ?? ''))?.[1]
  if (!distDir) return 'the web server command names no output directory to check'
  const configDir = config.configFile ? path.dirname(config.configFile) : process.cwd()
  let html: string
  try {
    html = readFileSync(path.resolve(configDir, distDir, 'contact/index.html'), 'utf8')
  } catch {
    return `${distDir} holds no contact page; build the site with \`make test-browser\``
  }
  const action = /<form[^>]*action="([^"]+)\/send-contact-email"/.exec(html)?.[1]
  if (action !== contactEndpoint) {
    return (
      `the site under test posts its forms to ${action ?? 'nowhere'}, not to the test contact service ` +
      `${contactEndpoint}; build it with \`make test-browser\` (sitegen build --contact-endpoint ${contactEndpoint})`
    )
  }
  return null
}
