import { defineConfig } from '@playwright/test'
import base from './playwright.config'

// `sitegen dev` in a real browser. Each test starts its own `sitegen dev` on a free port against a
// temporary copy of content/ (tests-dev/devServer.ts), so there is no shared web server here.
// Projects: `dev` and `admin` (the browser editor at /admin/, tests-dev/*.cms.ts), both run by
// `make test`, and `bench` (the save-to-visible timing of `make bench`).
export default defineConfig({
  forbidOnly: base.forbidOnly,
  reporter: [['list'], ['json', { outputFile: '../target/test-times/playwright-dev.json' }]],
  workers: 1,
  // Generous limits: starting Vite and its first page can be slow on a busy machine. Tests never
  // assert on time.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  use: { ...base.use, baseURL: undefined },
  projects: [
    { name: 'dev', testDir: './tests-dev' },
    { name: 'bench', testDir: './bench', testMatch: '*.bench.ts' },
    // The browser editor at /admin/ (tests-dev/*.cms.ts).
    { name: 'admin', testDir: './tests-dev', testMatch: '*.cms.ts' },
  ],
})
