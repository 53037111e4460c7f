import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * A throwaway real Postgres for the test run (scripts/test.ts): Debian's Postgres 15 with pgvector built from
 * `../shared/vendor/`, with the pgvector version and build steps of docker/postgres/Dockerfile (that image adds
 * pg_textsearch, which needs Postgres 17; on 15 keyword search takes the documented ts_rank fallback).
 *
 *   npx tsx scripts/real-postgres.ts -- npx vitest run server/retrieval/retrieval-api.int.test.ts
 *
 * runs a command with QUARRY_TEST_POSTGRES_URL set to the server's admin URL (the test harness then creates a fresh
 * database per suite on it), then stops the server and removes it.
 *
 * `preparePostgres` installs what is missing when it can (root, apt, the vendored source) and otherwise says what it
 * skipped and why; `startRealPostgres` initdbs a cluster in a temp dir, starts it on a free loopback port and hands
 * back an admin URL. Nothing of the machine's own clusters is touched.
 */

export const PG_MAJOR = 15;
export const PGVECTOR_VERSION = "0.8.6";
export const APT_PACKAGES = [`postgresql-${PG_MAJOR}`, `postgresql-server-dev-${PG_MAJOR}`, "build-essential"];
const ROOT = path.resolve(import.meta.dirname, "..");
export const PGVECTOR_TARBALL = path.resolve(ROOT, `../shared/vendor/pgvector-${PGVECTOR_VERSION}.tar.gz`);
const BIN = `/usr/lib/postgresql/${PG_MAJOR}/bin`;
const PG_CONFIG = `${BIN}/pg_config`;
const VECTOR_CONTROL = `/usr/share/postgresql/${PG_MAJOR}/extension/vector.control`;

export type Prepared = { ok: true } | { ok: false; skipped: string };
type Log = (line: string) => void;

const isRoot = () => process.getuid?.() === 0;
const run = (command: string, args: string[], cwd?: string) =>
  execFileSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });

const installPackages = (log: Log): Prepared => {
  // The build tools matter only while pgvector is still to be built.
  const buildTools = existsSync(VECTOR_CONTROL) || (existsSync(PG_CONFIG) && existsSync("/usr/bin/make"));
  if (existsSync(`${BIN}/postgres`) && buildTools) return { ok: true };
  if (!isRoot()) return { ok: false, skipped: `${APT_PACKAGES.join(" ")} are not installed and this is not root` };
  if (!existsSync("/usr/bin/apt-get"))
    return { ok: false, skipped: `${APT_PACKAGES.join(" ")} missing and no apt-get` };
  log(`installing ${APT_PACKAGES.join(" ")} (apt-get)`);
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...APT_PACKAGES]);
  return { ok: true };
};

/** pgvector from the vendored release, with the commands docker/postgres/Dockerfile runs (make, make install). */
const buildPgvector = (log: Log): Prepared => {
  if (existsSync(VECTOR_CONTROL)) return { ok: true };
  if (!existsSync(PGVECTOR_TARBALL))
    return { ok: false, skipped: `pgvector is not installed and ${PGVECTOR_TARBALL} is not there to build it from` };
  if (!isRoot()) return { ok: false, skipped: "pgvector is not installed and installing it needs root" };
  log(`building pgvector ${PGVECTOR_VERSION} from ${path.basename(PGVECTOR_TARBALL)}`);
  const dir = mkdtempSync(path.join(tmpdir(), "pgvector-"));
  try {
    run("tar", ["xzf", PGVECTOR_TARBALL, "-C", dir]);
    const src = path.join(dir, `pgvector-${PGVECTOR_VERSION}`);
    // OPTFLAGS="" : no -march=native, so the build does not depend on the CPU of the machine that compiled it.
    run("make", ["-j2", `PG_CONFIG=${PG_CONFIG}`, "OPTFLAGS="], src);
    run("make", ["install", `PG_CONFIG=${PG_CONFIG}`], src);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return existsSync(VECTOR_CONTROL) ? { ok: true } : { ok: false, skipped: `make install left no ${VECTOR_CONTROL}` };
};

/** Whether Postgres 15 and pgvector are installed already (nothing to install before a start). */
export const postgresInstalled = () => existsSync(`${BIN}/postgres`) && existsSync(VECTOR_CONTROL);

/** Postgres 15 and pgvector ready to run, installing them when root with apt and ../shared are there. */
export const preparePostgres = (log: Log = () => undefined): Prepared => {
  if (process.platform !== "linux") return { ok: false, skipped: "the real Postgres run needs Debian's packages" };
  const packages = installPackages(log);
  return packages.ok ? buildPgvector(log) : packages;
};

/** `dir` holds the cluster, its socket and log; `stop` removes it. */
export type RealPostgres = { adminUrl: string; dir: string; stop: () => void };

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** A command as the `postgres` user when running as root (initdb refuses root), else as this user. */
const asOwner = (args: string[]) => {
  const result = isRoot()
    ? spawnSync("su", ["postgres", "-s", "/bin/sh", "-c", args.map(quote).join(" ")], { encoding: "utf8" })
    : spawnSync(args[0]!, args.slice(1), { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${path.basename(args[0]!)} failed: ${result.stderr || result.stdout}`);
};

const postgresUser = (): [number, number] => [
  Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
  Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
];

/** A file or dir the server's user owns (when root; else this user, who runs the server). */
const giveToServer = (file: string) => {
  if (isRoot()) chownSync(file, ...postgresUser());
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

// A throwaway cluster: durability off (a crash loses nothing worth keeping), connections for every suite's pools.
const SETTINGS = [
  "listen_addresses=127.0.0.1",
  "max_connections=400",
  "fsync=off",
  "synchronous_commit=off",
  "full_page_writes=off",
  "shared_buffers=128MB",
];

/** initdb in a temp dir the server's user owns, start on a free loopback port; `stop` stops it and removes the dir. */
export const startRealPostgres = async (): Promise<RealPostgres> => {
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-pg15-"));
  chmodSync(dir, 0o700);
  giveToServer(dir);
  const data = path.join(dir, "data");
  const password = randomBytes(12).toString("hex");
  const pwfile = path.join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  giveToServer(pwfile);
  asOwner([`${BIN}/initdb`, "-D", data, "-U", "postgres", `--pwfile=${pwfile}`, "--auth=scram-sha-256", "-E", "UTF8"]);
  rmSync(pwfile);
  const port = await freePort();
  const options = [`-p ${port}`, `-k ${dir}`, ...SETTINGS.map((s) => `-c ${s}`)].join(" ");
  asOwner([`${BIN}/pg_ctl`, "-D", data, "-l", path.join(dir, "server.log"), "-o", options, "-w", "start"]);
  return {
    adminUrl: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    dir,
    stop: () => {
      try {
        asOwner([`${BIN}/pg_ctl`, "-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
};

/** The command line: prepare, start, run the command after `--` with the URL in the environment, stop. */
const main = async () => {
  const command = process.argv.slice(process.argv.indexOf("--") + 1);
  if (!process.argv.includes("--") || command.length === 0) {
    process.stderr.write("usage: npx tsx scripts/real-postgres.ts -- <command> [args...]\n");
    process.exit(2);
  }
  const prepared = preparePostgres((line) => process.stdout.write(`real Postgres: ${line}\n`));
  if (!prepared.ok) {
    process.stdout.write(`real Postgres: skipped, ${prepared.skipped}\n`);
    process.exit(0);
  }
  const server = await startRealPostgres();
  const child = spawn(command[0]!, command.slice(1), {
    stdio: "inherit",
    env: { ...process.env, QUARRY_TEST_POSTGRES_URL: server.adminUrl },
  });
  const code = await new Promise<number>((resolve) => child.once("exit", (status) => resolve(status ?? 1)));
  server.stop();
  process.exit(code);
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
