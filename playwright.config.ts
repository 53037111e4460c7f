import { randomInt } from "node:crypto";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// E2E_PORT lets several checkouts run their browser suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 3107);
// Local stand-ins of a web site and of GitHub for the connector forms (server/testing/serve-stand-ins.ts), and the
// port a spec's own OpenAI-compatible stand-in listens on (e2e/dashboard/providers.spec.ts); the app may reach
// exactly these ports.
const STANDIN_PORT = PORT + 1000;
const standIns = [STANDIN_PORT, STANDIN_PORT + 1, STANDIN_PORT + 2, STANDIN_PORT + 3]
  .map((p) => `127.0.0.1:${p}`)
  .join(",");
const externalBaseURL = process.env.E2E_BASE_URL;
const baseURL = externalBaseURL ?? `http://localhost:${PORT}`;

// The browser `npm test` picked (CHROMIUM_PATH), else Debian's Chromium when installed (TOOLCHAIN §7), else the one
// `npx playwright install` fetched.
const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const executablePath = process.env.CHROMIUM_PATH || (existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined);

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const randomToken = () => `qry_${Array.from({ length: 40 }, () => BASE62[randomInt(BASE62.length)]).join("")}`;

// Playwright evaluates this file in the runner and again in each worker. Values put in process.env by the runner are
// inherited by the workers, so every process agrees on this run's data dir and token.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `quarry-e2e-${Date.now()}`);
process.env.E2E_API_TOKEN ??= randomToken();
process.env.E2E_OWNER_EMAIL ??= "owner@e2e.test";
process.env.E2E_OWNER_PASSWORD ??= `pw-${randomToken().slice(4, 20)}`;
/** The owner's signed-in browser state, written by e2e/owner.setup.ts. */
export const OWNER_STATE = path.join(process.env.E2E_DATA_DIR, "owner-state.json");

export default defineConfig({
  testDir: "e2e",
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--no-first-run",
      ],
    },
  },
  projects: [
    // Creates the install's owner through the first-visit page (or signs in to an existing deployment) and keeps
    // the session for the other specs.
    { name: "setup", testMatch: /.*\.setup\.ts/, use: { ...devices["Desktop Chrome"] } },
    {
      name: "chromium",
      dependencies: ["setup"],
      use: { ...devices["Desktop Chrome"], storageState: OWNER_STATE },
    },
  ],
  // Against an external deployment (E2E_BASE_URL) nothing is started; otherwise the real app, as `npm start` runs it,
  // on a fresh data directory (embedded Postgres, local job runner).
  webServer: externalBaseURL
    ? undefined
    : [
        {
          command: "npx tsx server/testing/serve-stand-ins.ts",
          url: `http://127.0.0.1:${STANDIN_PORT}/robots.txt`,
          timeout: 60_000,
          reuseExistingServer: false,
          stdout: "ignore",
          stderr: "pipe",
          env: { E2E_STANDIN_PORT: String(STANDIN_PORT) },
        },
        {
          command: "node scripts/start.mjs",
          url: `http://localhost:${PORT}/api/health`,
          // The first start runs `next build`.
          timeout: 300_000,
          reuseExistingServer: false,
          stdout: "ignore",
          stderr: "pipe",
          // SIGTERM lets the launcher stop the job runner and the embedded database cleanly.
          gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
          env: {
            PORT: String(PORT),
            QUARRY_DATA_DIR: process.env.E2E_DATA_DIR,
            QUARRY_INIT_TOKEN: process.env.E2E_API_TOKEN,
            LOG_LEVEL: "warn",
            // Every spec signs in from the same address.
            QUARRY_AUTH_ATTEMPTS_PER_MINUTE: "1000",
            QUARRY_FETCH_ALLOW_HOSTS: standIns,
            GITHUB_API_BASE_URL: `http://127.0.0.1:${STANDIN_PORT + 1}`,
          },
        },
      ],
});
