// Astro's default configuration, but for its cache, kept in the project so that every
// benchmark build starts cold.
import { defineConfig } from 'astro/config'

export default defineConfig({ cacheDir: './.cache' })
