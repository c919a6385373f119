import { defineConfig } from 'vitest/config'

// Node by default (the webhook helpers); the loader's test asks for jsdom in its first line.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
  },
})
