import { type ChildProcess, spawn } from 'node:child_process'
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { content } from './support/content'

// `sitegen serve DIR --previews` answers `NAME.localhost` from DIR/previews/NAME/, as sitegen's
// CloudFront function answers NAME.<preview domain>: a browser opens a preview at its own host,
// and every answer there says noindex. (Its routing rules are tested in sitegen/tests/it/serve.rs;
// this is the real server and a real browser resolving a `.localhost` name.)

const repo = path.resolve(import.meta.dirname, '../..')
const built = path.join(repo, 'target/e2e/dist')

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

let dir: string
let server: ChildProcess
let port: number

test.beforeAll(async () => {
  // The site at the root, and the same build as the preview `pr-7`.
  dir = mkdtempSync(path.join(os.tmpdir(), 'sitegen-previews-'))
  cpSync(built, dir, { recursive: true })
  cpSync(built, path.join(dir, 'previews/pr-7'), { recursive: true })
  // A redirect of the preview's own build, which the site's does not have.
  appendFileSync(path.join(dir, 'previews/pr-7/_redirects'), '/preview-only-move /about/ 301\n')
  port = await freePort()
  server = spawn(path.join(repo, 'target/debug/sitegen'), ['serve', dir, '--previews', '--port', String(port)], {
    stdio: 'ignore',
  })
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined))?.status, { timeout: 30_000 })
    .toBe(200)
})

test.afterAll(() => {
  server?.kill()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('a preview opens at its name on localhost with its own redirects, every answer noindex, and the site stays indexable', async ({ page }) => {
  const about = content.routes.find((route) => route.path === '/about')
  expect(about?.title).toBeTruthy()

  const preview = await page.goto(`http://pr-7.localhost:${port}/about/`)
  expect(preview?.status()).toBe(200)
  expect(preview?.headers()['x-robots-tag']).toBe('noindex')
  await expect(page).toHaveTitle(about?.title ?? '')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()

  const moved = await page.goto(`http://pr-7.localhost:${port}/preview-only-move`)
  const move = await moved?.request().redirectedFrom()?.response()
  expect(move?.status()).toBe(301)
  expect(move?.headers()['x-robots-tag']).toBe('noindex')
  expect(new URL(page.url()).pathname).toBe('/about/')

  const missing = await page.goto(`http://pr-7.localhost:${port}/no-such-page`)
  expect(missing?.status()).toBe(404)
  expect(missing?.headers()['x-robots-tag']).toBe('noindex')
  const unknown = await page.goto(`http://pr-8.localhost:${port}/`)
  expect(unknown?.status()).toBe(404)
  expect(unknown?.headers()['x-robots-tag']).toBe('noindex')

  const site = await page.goto(`http://127.0.0.1:${port}/about/`)
  expect(site?.status()).toBe(200)
  expect(site?.headers()['x-robots-tag']).toBeUndefined()
  const inside = await page.goto(`http://127.0.0.1:${port}/previews/pr-7/about/`)
  expect(inside?.status()).toBe(404)
  const notMoved = await page.goto(`http://127.0.0.1:${port}/preview-only-move`)
  expect(notMoved?.status()).toBe(404)
})
