import { defineConfig } from '@playwright/test'
export default defineConfig({ testDir: './tests-static', reporter: [['list']], workers: 1 })
