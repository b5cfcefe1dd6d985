import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import { Frame } from '../components/Frame'
import type { Site } from '../components/model'
import siteData from '../data/site.json'

const site: Site = siteData

export const metadata: Metadata = {
  title: { template: `%s | ${site.name}`, default: site.name },
  icons: '/favicon.svg',
  other: { 'theme-color': '#ffffff' },
}

/** Every page in the frame sitegen's pages have: header and navigation, main, footer. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Frame site={site}>{children}</Frame>
      </body>
    </html>
  )
}
