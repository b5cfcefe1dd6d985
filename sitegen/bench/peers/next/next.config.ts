// A static export (`out/ARTICLE/index.html`) with Next.js's defaults otherwise. The project's
// node_modules is a link to where make bench-peers installed it, outside the project, so
// Turbopack's root is the file system's.
import type { NextConfig } from 'next'

const config: NextConfig = {
  output: 'export',
  trailingSlash: true,
  turbopack: { root: '/' },
}

export default config
