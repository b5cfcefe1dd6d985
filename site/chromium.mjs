// How every tool here starts Chromium: Debian's build (never a downloaded browser), headless,
// with nothing that reaches out to the network on its own. Used by the Playwright config, the
// benchmarks in bench/ and any script that launches a browser.
export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium'

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
