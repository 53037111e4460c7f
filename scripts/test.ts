/**
 * `npm test`: lint, then every suite (unit, integration, browser), after making sure what they need is here: the Prisma
 * client, a production build of the app (integration and browser tests run the real server), and a Chromium
 * (Playwright's own if installed, else the system's, else Debian's `chromium` via apt when running as root). Then the
 * integration suites that touch SQL once more on a throwaway real Postgres 15 (scripts/real-postgres.ts), unless a
 * database URL is set or that server cannot be had here (it says why).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { preparePostgres, startRealPostgres, type RealPostgres } from "./real-postgres";
import { REAL_POSTGRES_SUITES, realPostgresSkipped } from "./real-postgres-suites";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

const run = (label: string, command: string, args: string[], extraEnv: Record<string, string> = {}) => {
  process.stdout.write(`\n== ${label} ==\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  process.stdout.write(
    `== ${label}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s ==\n`,
  );
  return result.status === 0;
};

const SYSTEM_CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

const findChromium = async (): Promise<string | null> => {
  try {
    const { chromium } = await import("@playwright/test");
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright's browsers are not installed; fall back to the system's.
  }
  return SYSTEM_CHROMIUM.find((p) => existsSync(p)) ?? null;
};

const ensureChromium = async (): Promise<string> => {
  const found = await findChromium();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    process.stdout.write("Installing Debian's chromium for the browser tests (apt-get)...\n");
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], {
      stdio: "inherit",
      env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
    });
    const installed = await findChromium();
    if (installed) return installed;
  }
  process.stderr.write(
    "The browser tests need Chromium. Install one of: `npx playwright install chromium`, " +
      "or your system's package (Debian/Ubuntu: `sudo apt-get install chromium`), then run `npm test` again.\n",
  );
  process.exit(1);
};

/**
 * One more try for a test that fails (vitest and Playwright alike): a test that fails only once in a whole run is
 * reported by name as flaky at the end instead of failing the run; one that fails twice fails it. Direct
 * `npx vitest` / `npx playwright test` runs do not retry.
 */
const RETRIES = 1;

const VITEST_REPORT = ".test-reports/vitest.json";
const REAL_POSTGRES_REPORT = ".test-reports/vitest-real-postgres.json";
const PLAYWRIGHT_REPORT = ".test-reports/playwright.json";

/** Whether the second vitest run on a real Postgres ran (a skipped one adds nothing to the counts). */
let realPostgresRan = false;
const REAL_LABEL = "vitest (real Postgres 15)";
let realPostgres: { state: "ready" } | { state: "skipped" | "failed"; why: string } = {
  state: "skipped",
  why: "not prepared",
};

/**
 * Postgres 15 and pgvector installed (as root, with apt and ../shared) before the first vitest run, so that the test of
 * the throwaway server itself runs there too. Skipped, with the reason, when a database URL is set already or the
 * server cannot be installed here; a failed install fails the step.
 */
const prepareRealPostgres = (): boolean => {
  process.stdout.write("\n== Postgres 15 + pgvector for the real-Postgres run ==\n");
  const started = Date.now();
  if (process.env.DATABASE_URL || process.env.QUARRY_TEST_POSTGRES_URL) {
    realPostgres = { state: "skipped", why: "DATABASE_URL or QUARRY_TEST_POSTGRES_URL is set" };
  } else {
    try {
      const prepared = preparePostgres((line) => process.stdout.write(`${line}\n`));
      realPostgres = prepared.ok ? { state: "ready" } : { state: "skipped", why: prepared.skipped };
    } catch (error) {
      realPostgres = { state: "failed", why: error instanceof Error ? error.message : String(error) };
    }
  }
  const outcome = realPostgres.state === "ready" ? "ready" : `${realPostgres.state}, ${realPostgres.why}`;
  process.stdout.write(`== Postgres 15 + pgvector: ${outcome} in ${((Date.now() - started) / 1000).toFixed(1)} s ==\n`);
  return realPostgres.state !== "failed";
};

/**
 * The SQL suites again on Debian's Postgres 15 with pgvector: each suite gets a database of its own on one throwaway
 * server (QUARRY_TEST_POSTGRES_URL), so real concurrency, real planner choices and the ts_rank keyword fallback are
 * exercised. A server that could be had and did not start counts as one failure (its report is missing).
 */
const realPostgresRun = async (): Promise<boolean> => {
  const label = REAL_LABEL;
  if (realPostgres.state !== "ready") {
    process.stdout.write(`\n== ${label}: not run, ${realPostgres.state}: ${realPostgres.why} ==\n`);
    // A failed install failed its own step already; here it counts as one failed test (no report).
    realPostgresRan = realPostgres.state === "failed";
    return true;
  }
  const started = Date.now();
  let server: RealPostgres;
  try {
    server = await startRealPostgres();
  } catch (error) {
    process.stderr.write(
      `== ${label}: FAILED to start: ${error instanceof Error ? error.message : String(error)} ==\n`,
    );
    realPostgresRan = true;
    return false;
  }
  process.stdout.write(`Postgres ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`suites run:\n${REAL_POSTGRES_SUITES.map((suite) => `  ${suite}\n`).join("")}`);
  const skipped = realPostgresSkipped().map(({ suite, why }) => `  ${suite} (${why})\n`);
  process.stdout.write(`suites not run (they ran on the embedded Postgres above):\n${skipped.join("")}`);
  realPostgresRan = true;
  try {
    return run(
      label,
      process.execPath,
      [
        "node_modules/vitest/vitest.mjs",
        "run",
        ...REAL_POSTGRES_SUITES,
        `--retry=${RETRIES}`,
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${REAL_POSTGRES_REPORT}`,
      ],
      { QUARRY_TEST_POSTGRES_URL: server.adminUrl },
    );
  } finally {
    server.stop();
  }
};

/** Passed and failed counts of both runners, from their JSON reports (a missing report counts as one failure). */
type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
};
type PlaywrightSuite = {
  title: string;
  file?: string;
  specs?: { title: string; tests: { status: string; results: { error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
};
type PlaywrightReport = {
  stats: { expected: number; unexpected: number; flaky: number };
  suites?: PlaywrightSuite[];
};

const readReport = <T>(file: string): T | null =>
  existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : null;

/**
 * A file that failed without a failed test (it did not load, or a hook failed) counts as one failure; vitest's own
 * numFailedTestSuites counts every file and describe block around a failed test too, so it is not added.
 */
const vitestCounts = (file: string) => {
  const report = readReport<VitestReport>(file);
  if (!report) return { passed: 0, failed: 1 };
  const brokenFiles = (report.testResults ?? []).filter(
    (suite) => suite.status === "failed" && !suite.assertionResults?.some((test) => test.status === "failed"),
  ).length;
  return { passed: report.numPassedTests, failed: report.numFailedTests + brokenFiles };
};

const counts = () => {
  const vitest = vitestCounts(VITEST_REPORT);
  const real = realPostgresRan ? vitestCounts(REAL_POSTGRES_REPORT) : { passed: 0, failed: 0 };
  const playwright = readReport<PlaywrightReport>(PLAYWRIGHT_REPORT)?.stats;
  const passed = vitest.passed + real.passed + (playwright?.expected ?? 0) + (playwright?.flaky ?? 0);
  const failed = vitest.failed + real.failed + (playwright ? playwright.unexpected : 1);
  return { passed, failed };
};

/** The first line of a failure, without colour codes, short enough to read in a CI log's tail. */
const firstLine = (message = "") =>
  message
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((line) => line.trim())
    .find(Boolean)
    ?.slice(0, 300) ?? "";

const relative = (file: string) => path.relative(root, file) || file;

const vitestFailures = (file: string): string[] =>
  (readReport<VitestReport>(file)?.testResults ?? []).flatMap((suite) => {
    const tests = (suite.assertionResults ?? []).filter((test) => test.status === "failed");
    if (!tests.length && suite.status === "failed") return [`${relative(suite.name)}: ${firstLine(suite.message)}`];
    return tests.map((test) => `${relative(suite.name)} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  });

/** Passed after a retry: its first failure is kept in the report. */
const vitestFlaky = (file: string): string[] =>
  (readReport<VitestReport>(file)?.testResults ?? []).flatMap((suite) =>
    (suite.assertionResults ?? [])
      .filter((test) => test.status === "passed" && test.failureMessages?.length)
      .map((test) => `${relative(suite.name)} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`),
  );

const playwrightTests = (status: string, suites: PlaywrightSuite[] = [], file = ""): string[] =>
  suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === status)
        .map((test) => {
          const error = test.results.find((result) => result.error)?.error?.message;
          return `${suite.file ?? file} > ${spec.title}: ${firstLine(error)}`;
        }),
    ),
    ...playwrightTests(status, suite.suites, suite.file ?? file),
  ]);

const realPostgresLines = (lines: (file: string) => string[]) =>
  realPostgresRan ? lines(REAL_POSTGRES_REPORT).map((line) => `[real Postgres] ${line}`) : [];

/** Every failed test by name with the first line of its error, printed last so that a log's tail shows them. */
const failedTests = () => [
  ...vitestFailures(VITEST_REPORT),
  ...playwrightTests("unexpected", readReport<PlaywrightReport>(PLAYWRIGHT_REPORT)?.suites),
  ...realPostgresLines(vitestFailures),
];

/** Tests that failed once and passed on their retry, with their first error: to be fixed, not to be forgotten. */
const flakyTests = () => [
  ...vitestFlaky(VITEST_REPORT),
  ...playwrightTests("flaky", readReport<PlaywrightReport>(PLAYWRIGHT_REPORT)?.suites),
  ...realPostgresLines(vitestFlaky),
];

const main = async () => {
  for (const report of [VITEST_REPORT, REAL_POSTGRES_REPORT, PLAYWRIGHT_REPORT]) rmSync(report, { force: true });
  const chromium = await ensureChromium();
  const steps: [string, () => boolean | Promise<boolean>][] = [
    ["prisma generate", () => run("prisma generate", process.execPath, ["scripts/prisma-generate.mjs"])],
    [
      "build",
      () =>
        run("next build (when sources changed)", process.execPath, [
          "node_modules/tsx/dist/cli.mjs",
          "scripts/build.ts",
        ]),
    ],
    [
      "typecheck",
      () => run("tsc --noEmit", process.execPath, ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."]),
    ],
    ["lint", () => run("eslint", process.execPath, ["node_modules/eslint/bin/eslint.js", "."])],
    ["layers", () => run("dependency-cruiser", process.execPath, ["scripts/check-layers.mjs"])],
    ["real Postgres (install)", prepareRealPostgres],
    [
      "unit + integration (vitest)",
      () =>
        run("vitest", process.execPath, [
          "node_modules/vitest/vitest.mjs",
          "run",
          `--retry=${RETRIES}`,
          "--reporter=default",
          "--reporter=json",
          `--outputFile.json=${VITEST_REPORT}`,
        ]),
    ],
    [
      "browser (playwright)",
      () =>
        run(
          "playwright",
          process.execPath,
          ["node_modules/@playwright/test/cli.js", "test", `--retries=${RETRIES}`, "--reporter=list,json,html"],
          {
            CHROMIUM_PATH: chromium,
            PLAYWRIGHT_JSON_OUTPUT_FILE: PLAYWRIGHT_REPORT,
            // The HTML report (playwright-report/) holds each journey screen's screenshot; never opened by the run.
            PLAYWRIGHT_HTML_OPEN: "never",
          },
        ),
    ],
    ["integration on a real Postgres (vitest)", realPostgresRun],
  ];
  const failed: string[] = [];
  for (const [name, step] of steps) {
    if (!(await step())) {
      failed.push(name);
      if (name === "prisma generate" || name === "build") break; // nothing after these can pass
    }
  }
  const total = counts();
  const flaky = flakyTests();
  if (flaky.length) {
    process.stdout.write(`\nFlaky tests (failed, then passed on a retry):\n${flaky.map((l) => `  ${l}\n`).join("")}`);
  }
  const failures = failedTests();
  if (failures.length) process.stdout.write(`\nFailed tests:\n${failures.map((line) => `  ${line}\n`).join("")}`);
  if (failed.length) process.stderr.write(`\nFailed: ${failed.join(", ")}\n`);
  process.stdout.write(`\ntests: ${total.passed} passed, ${total.failed} failed\n`);
  process.exit(failed.length || total.failed ? 1 : 0);
};

void main();
