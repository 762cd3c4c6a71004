import { defineConfig } from 'vitest/config'

// Tiers: unit (pure, fast), int (real PGlite and PostgreSQL, real SMTP and Redis), web (components in
// jsdom), e2e (a real Chromium against a running Tessera), faults (failures injected into real parts,
// with figures printed). `npm test` runs them all.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            '{app,domain,command-api,query-api,http,projections,infra,bench}/**/*.unit.spec.ts',
            'tests/architecture/*.unit.spec.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'int',
          include: [
            '{app,domain,command-api,query-api,http,projections,infra}/**/*.int.spec.ts',
            'tests/**/*.int.spec.ts',
          ],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          include: ['web/**/*.spec.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/test/setup.ts'],
        },
      },
      {
        // Faults injected into real parts (PostgreSQL stopped, the projector killed, 10,000 forged
        // requests); each test prints its figures. One file at a time: they load the machine.
        test: {
          name: 'faults',
          include: ['tests/faults/**/*.faults.spec.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.spec.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
