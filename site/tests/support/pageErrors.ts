import type { ConsoleMessage, Page } from '@playwright/test'
import { contactEndpoint } from './formsEnv'

/**
 * A failed load of the contact service: the forms' tests stop the shared contact-fn on purpose
 * (tests/forms.spec.ts), and a form that hydrates meanwhile on a page another test opens asks it
 * for its challenge in vain. That is the service's outage, which the forms' tests check; it is
 * not an error of the page under test.
 */
function contactServiceUnreachable(message: ConsoleMessage): boolean {
  const service = new URL(contactEndpoint).origin
  return message.text().startsWith('Failed to load resource') && message.location().url.startsWith(service)
}

/**
 * Collects the errors `page` raises and logs from now on, but the contact service being out of
 * reach and those `ignore` accepts.
 */
export function pageErrors(page: Page, ignore: (message: ConsoleMessage) => boolean = () => false): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error' && !contactServiceUnreachable(message) && !ignore(message)) {
      errors.push(message.text())
    }
  })
  return errors
}
