/** The not-found page is served at whatever path was missing: logs it for whoever looks at the console. */
export default class LogMissingPage {
  constructor(_root: HTMLElement) {
    console.error('404 Error: User attempted to access non-existent route:', window.location.pathname)
  }
}
