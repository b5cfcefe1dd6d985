// Astro with its React integration, defaults otherwise but for the cache, kept in the project
// so that every benchmark build starts cold.
import react from '@astrojs/react'
import { defineConfig } from 'astro/config'

export default defineConfig({ cacheDir: './.cache', integrations: [react()] })
