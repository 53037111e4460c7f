import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { buildSync } from "esbuild";
import { logger } from "../logger";
import { BUNDLE_DIR, BUNDLED_SOURCES, bundledPath } from "./bundle";

/** Folders and files whose change makes a production build stale. */
const SOURCES = [
  "app",
  "components",
  "server",
  "inngest",
  "scripts/start.ts",
  "next.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
  "postcss.config.mjs",
  "package-lock.json",
];
const SKIP = new Set(["node_modules", "generated", ".next"]);

const newestMtime = (entry: string): number => {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) {
    if (!SKIP.has(name) && !name.endsWith(".test.ts")) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
};

/** True when there is no production build, or a source file changed after it was made. */
export const buildIsStale = (root: string): boolean => {
  const marker = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(marker)) return true;
  const builtAt = statSync(marker).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > builtAt);
};

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** One build at a time per checkout: test suites and launchers started together wait for the first one's build. */
const withBuildLock = (root: string, work: () => void) => {
  const lock = path.join(root, ".next-build.lock");
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch {
      const pid = Number(readFileSync(path.join(lock, "pid"), { encoding: "utf8", flag: "a+" }) || 0);
      const abandoned = pid
        ? !isAlive(pid)
        : Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 60_000;
      if (abandoned) rmSync(lock, { recursive: true, force: true });
      else sleepSync(500);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
};

/** True when the app's bundles (bundle.ts) are missing or older than the app's build. */
const bundlesAreStale = (root: string): boolean => {
  const marker = statSync(path.join(root, ".next", "BUILD_ID"), { throwIfNoEntry: false });
  return (
    !marker ||
    BUNDLED_SOURCES.some((source) => {
      const bundle = statSync(path.join(root, bundledPath(source)), { throwIfNoEntry: false });
      return !bundle || bundle.mtimeMs < marker.mtimeMs;
    })
  );
};

/**
 * `next build` when needed, so `npm start` works on a fresh clone and after a `git pull`; with it the app's bundles
 * (also after a plain `next build`, as the Dockerfile runs).
 */
export const ensureNextBuild = (root: string) => {
  if (!buildIsStale(root) && !bundlesAreStale(root)) return;
  withBuildLock(root, () => {
    runNextBuild(root);
    if (bundlesAreStale(root)) bundleApp(root);
  });
};

/** Writes the app's bundles (bundle.ts): shared code in common chunks, parsers loaded when a format needs them. */
const bundleApp = (root: string) => {
  const outdir = path.join(root, BUNDLE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  buildSync({
    absWorkingDir: root,
    entryPoints: [...BUNDLED_SOURCES],
    outbase: ".",
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
  });
};

const runNextBuild = (root: string) => {
  if (!buildIsStale(root)) return; // another process built it while we waited
  logger.info("building the app (first start or changed sources); this takes a minute");
  const result = spawnSync(process.execPath, [createRequire(import.meta.url).resolve("next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error(`next build failed with exit code ${result.status}`);
};
