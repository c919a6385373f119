import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium';
import { devServerEnv, shardSuffix as own } from './server-env';

// The specs drive the real binary (SPA + API + worker + scheduler in one
// process) against its own database and Redis DB, in the Debian Chromium.
// `make test` builds web/ and bin/perfilseguro, and resets the e2e database
// and Redis DB before this runs.
// E2E_PORT, E2E_DATABASE and E2E_REDIS_DB let two runs share one machine;
// scripts/test.sh resets the same database and Redis DB.
const port = Number(process.env.E2E_PORT ?? 8089);
const database = process.env.E2E_DATABASE ?? 'perfilseguro_e2e';
const redisDB = process.env.E2E_REDIS_DB ?? '5';
const baseURL = `http://127.0.0.1:${port}`;
// scripts/test.sh runs shards at once, each on its own port: each keeps its own log, results and
// report (own: server-env.ts's shardSuffix).

export default defineConfig({
  testDir: './tests',
  outputDir: `./test-results${own}`,
  // One server, one database: specs run one at a time so they cannot race (scripts/test.sh
  // runs shards of the suite at once, each with a server, database and Redis DBs of its own).
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // In CI one retry, so a test that fails once on a loaded machine is reported as flaky in the
  // summary instead of blocking the submission; a test that fails twice still fails the run.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: `./playwright-report${own}` }]],
  use: {
    baseURL,
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Never download browsers: use the system Chromium.
        launchOptions: {
          executablePath: chromiumPath,
          args: chromiumArgs,
        },
      },
    },
  ],
  webServer: {
    // `dev` migrates, then serves everything on HTTP_ADDR. Its log (one line per
    // request and job) goes to server.log (server-<port>.log), which `make test` prints on failure.
    command: `exec ../bin/perfilseguro dev > server${own}.log 2>&1`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: devServerEnv({ port, database, redisDB }),
  },
});
