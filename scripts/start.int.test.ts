import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNextBuild } from "../server/runtime/next-build";
import { freePort } from "../server/testing/quarry-process";

/** `npm start` itself: what a person sees on a busy port, on first start and after a clean stop. */

const ROOT = path.resolve(import.meta.dirname, "..");
let dataDir: string;

const launch = (port: number) => {
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      QUARRY_DATA_DIR: dataDir,
      QUARRY_INIT_TOKEN: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
};

const exited = (child: ChildProcess, timeoutMs: number) =>
  new Promise<number | null>((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms`)), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });

const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 200));
  }
};

beforeAll(() => {
  ensureNextBuild(ROOT);
  dataDir = mkdtempSync(path.join(tmpdir(), "quarry-start-"));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm start", () => {
  it("exits on a busy port without using up the first-start token, prints it on the next start, stops cleanly", async () => {
    const busyPort = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(busyPort, "127.0.0.1", resolve));
    try {
      const first = launch(busyPort);
      expect(await exited(first.child, 120_000)).toBe(1);
      expect(first.output()).toContain(`Port ${busyPort} on 127.0.0.1 is already in use`);
      expect(first.output()).not.toContain("qry_");
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    expect(existsSync(path.join(dataDir, "pgdata.lock"))).toBe(false);

    const port = await freePort();
    const second = launch(port);
    try {
      await waitFor(() => /qry_[0-9A-Za-z]{40,}/.test(second.output()), 180_000);
      const token = /qry_[0-9A-Za-z]{40,}/.exec(second.output())![0];
      const res = await fetch(`http://127.0.0.1:${port}/api/public/v1/sources/config`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      // Routes, pages and searches each touch the database (from Next's several server bundles) before the stop.
      const auth = { Authorization: `Bearer ${token}` };
      expect((await fetch(`http://127.0.0.1:${port}/api/public/v1/sources`, { headers: auth })).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/sign-in`)).status).toBeLessThan(400);
      const search = await fetch(`http://127.0.0.1:${port}/api/public/v1/sources/prebuilt-rag`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ query: "granite" }),
      });
      expect(search.status).toBe(200);
      // Files at rest are the owner's only.
      expect(statSync(dataDir).mode & 0o077).toBe(0);
      const beforeStop = second.output().length;
      second.child.kill("SIGTERM");
      expect(await exited(second.child, 60_000)).toBe(0);
      // A stop is not a failure: connections closing because we stop are not warnings.
      expect(second.output().slice(beforeStop)).not.toMatch(/"level":(40|50|60)/);
    } finally {
      second.child.kill("SIGKILL");
    }
    // A clean stop leaves no lock behind, so the next start has nothing stale to warn about.
    expect(existsSync(path.join(dataDir, "pgdata.lock"))).toBe(false);
    const third = launch(port);
    try {
      const healthy = () =>
        fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
      await waitFor(healthy, 180_000);
      expect(third.output()).not.toMatch(/stale/i);
      expect(third.output()).not.toContain("qry_");
    } finally {
      third.child.kill("SIGTERM");
      await exited(third.child, 60_000).catch(() => third.child.kill("SIGKILL"));
    }
    // Three starts of the real app, each waited for up to 180 s: the default 60 s is too short on a busy machine.
  }, 600_000);
});
