// The editor `sitegen build` publishes for the live site (`cms:` in site.yaml), served as the CDN
// serves it (`sitegen serve`, _headers applied): it starts under its own Content-Security-Policy
// with no violation, asks to sign in with GitHub, and sends the sign-in to the OAuth proxy of
// site.yaml. GitHub itself is not reached: the proxy's page is answered here.
// Alone: `cd site && npx playwright test -c playwright.dev.config.ts --project=admin admin-live`.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { SITEGEN_GITHUB } from '../admin/sitegenGithub'

const repo = path.resolve(import.meta.dirname, '../..')
const bin = process.env.SITEGEN_BIN || path.join(repo, 'target/debug/sitegen')
const proxy = 'https://cms-auth.example.com'

/** Serves `dir` with `sitegen serve --port 0`; resolves with its URL and the process. */
async function serve(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(bin, ['serve', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk
      const match = /at (http:\/\/\S+?)\/? /.exec(output)
      if (match?.[1]) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`sitegen serve exited (${code}):\n${output}`)))
  })
  return { url, child }
}

test('the live site’s editor starts under its own policy and signs in through the proxy of site.yaml', async ({ page }) => {
  test.setTimeout(300_000)
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'sitegen-admin-live-'))
  const content = path.join(scratch, 'content')
  cpSync(path.join(repo, 'content'), content, { recursive: true })
  appendFileSync(path.join(content, 'site.yaml'), `cms:\n  repo: nordvale/site\n  branch: main\n  base_url: ${proxy}\n`)
  const out = path.join(scratch, 'dist')
  execFileSync(bin, ['build', '--quiet', '--content', content, '--site', path.join(repo, 'site'), '--out', out], { cwd: repo })
  const { url, child } = await serve(out)
  try {
    const problems: string[] = []
    // Every error but a missing resource's, which the response below names.
    page.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource/.test(message.text())) problems.push(message.text())
    })
    page.on('response', (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.status()} ${answer.url()}`)
    })
    page.on('pageerror', (error) => problems.push(error.message))
    // The site's page components come only with the preview of `sitegen dev`.
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
    })

    const response = await page.goto(`${url}/admin/`)
    expect(response?.headers()['x-robots-tag']).toBe('noindex, nofollow')
    // The site's policy is lifted from /admin/ and the page's own stands in its place.
    expect(response?.headers()['content-security-policy']).toBeUndefined()
    await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', new RegExp(`connect-src 'self' https://api.github.com ${proxy};`))
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow')
    const login = page.getByRole('button', { name: 'Login with GitHub' })
    await expect(login).toBeVisible({ timeout: 60_000 })
    await expect(page.getByText('Error loading the CMS configuration')).toHaveCount(0)

    // The sign-in opens the proxy of site.yaml in a window of its own.
    await page.context().route(`${proxy}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<title>OAuth proxy</title>' }))
    const [popup] = await Promise.all([page.waitForEvent('popup'), login.click()])
    await popup.waitForLoadState()
    const signIn = new URL(popup.url())
    expect(`${signIn.origin}${signIn.pathname}`).toBe(`${proxy}/auth`)
    expect(signIn.searchParams.get('provider')).toBe('github')
    expect(problems).toEqual([])
    expect(scripts.length).toBeGreaterThan(0)
    // It is a chunk of its own in the build, and this editor never asks for it.
    const preview = /^preview-[^/]*\.js$/
    expect(readdirSync(path.join(out, 'admin/assets')).filter((file) => preview.test(file))).toHaveLength(1)
    expect(scripts.filter((script) => preview.test(path.basename(script)))).toEqual([])

    const config = JSON.parse(readFileSync(path.join(out, 'admin/config.json'), 'utf8'))
    expect(config.backend).toMatchObject({ name: SITEGEN_GITHUB, repo: 'nordvale/site', branch: 'main', preview_context: 'sitegen/preview' })
    expect(config.publish_mode).toBe('editorial_workflow')
  } finally {
    child.kill()
    rmSync(scratch, { recursive: true, force: true })
  }
})
