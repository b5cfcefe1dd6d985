import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './chromium.mjs'

// Browser tests run against the real build served by `sitegen serve`, the way a CDN serves it.
// `make test-browser` builds the site into ../target/e2e/dist and exports the content JSON the
// tests read (SITEGEN_CONTENT) before running them. The build's forms post to the contact-fn
// that the global setup starts (with a real SMTP server behind it) on E2E_CONTACT_PORT.
// E2E_SITE_PORT lets two checkouts run the suite side by side.
const port = Number(process.env.E2E_SITE_PORT || 4317)
const distDir = '../target/e2e/dist'
/** The forms' tests, which run in order in a worker of their own (see `projects`). */
const formsFile = 'forms.spec.ts'
/** Tests that post to the shared contact-fn too, so they run once the forms' tests are done. */
const afterFormsFile = 'form-islands.spec.ts'

export default defineConfig({
  testDir: './tests',
  globalSetup: './tests/global-setup.ts',
  fullyParallel: true,
  // The suite waits more than it computes (pages loading, toasts, deliveries): a worker more
  // than the cores keeps them busy.
  workers: 3,
  forbidOnly: Boolean(process.env.CI),
  // The JSON report is what `make test-times` reads each test's time from.
  reporter: [['list'], ['json', { outputFile: '../target/test-times/playwright.json' }]],
  // Generous limits: the machine running the suite may be busy. Tests never assert on time.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    // Debian's Chromium; Playwright never downloads a browser for these tests.
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'retain-on-failure',
  },
  // The forms' tests share one contact-fn that some of them stop, so their file runs in one
  // worker, in order (tests/forms.spec.ts): it is the longest chain of the suite, queued first
  // so that it runs beside everything else rather than after it.
  // `static` reads the built files without a browser (tests-static/support/built.ts): the checks
  // of markup that need no layout, script or focus.
  // Other tests that post to that contact-fn wait for the forms' tests to end (`islands`): run
  // beside them, they met it stopped.
  projects: [
    { name: 'forms', testMatch: formsFile },
    { name: 'islands', testMatch: afterFormsFile, dependencies: ['forms'] },
    { name: 'pages', testIgnore: [formsFile, afterFormsFile] },
    { name: 'static', testDir: './tests-static' },
  ],
  webServer: {
    command: `../target/debug/sitegen serve ${distDir} --port ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
})
