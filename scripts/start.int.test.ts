import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNextBuild } from "../server/startup/next-build";
import { buildDocx, wPara } from "../server/parsing/office/test-fixtures";
import { dashboardClient } from "../server/testing/dashboard-client";
import { apiClient, freePort, startQuarry } from "../server/testing/quarry-process";

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

describe("npm start without LibreOffice and ffmpeg", () => {
  it("says once what is missing and what it disables, in the log, in GET /config, and as 503 for Office page images", async () => {
    const quarry = await startQuarry({
      env: {
        QUARRY_SOFFICE_PATH: "/nonexistent/soffice",
        QUARRY_FFMPEG_PATH: "/nonexistent/ffmpeg",
        QUARRY_FFPROBE_PATH: "/nonexistent/ffprobe",
        QUARRY_ADMIN_EMAIL: "owner@tools.test",
        QUARRY_ADMIN_PASSWORD: "owner-password-1",
      },
    });
    try {
      const lines = quarry
        .output()
        .split("\n")
        .filter((l) => /system tools/i.test(l));
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!) as { msg: string };
      expect(line.msg).toMatch(/LibreOffice \(soffice\).*\.doc.*page images/);
      expect(line.msg).toMatch(/ffmpeg.*audio and video/);
      expect(line.msg).toMatch(/apt-get install .*libreoffice-writer.*ffmpeg/);

      const api = apiClient(quarry);
      const config = (await (await api.get("/config")).json()) as {
        allowed_extensions: string[];
        unavailable_features: { feature: string; tool: string; package: string; formats: string[] }[];
      };
      expect(config.allowed_extensions).toContain("doc"); // still accepted: the build says what to install
      const byTool = Object.fromEntries(config.unavailable_features.map((f) => [f.feature, f]));
      expect(byTool["legacy-office-documents"]).toMatchObject({
        tool: "soffice",
        formats: ["doc", "ppt", "xls", "ods", "odp", "rtf"],
      });
      expect(byTool["office-page-images"]).toMatchObject({ tool: "soffice" });
      expect(byTool["office-page-images"]!.formats).toContain("docx");
      expect(byTool["audio-video"]).toMatchObject({ tool: "ffmpeg", package: "ffmpeg" });
      expect(byTool["audio-video"]!.formats).toEqual(expect.arrayContaining(["mp3", "mp4"]));

      // The dashboard's sources page gets the same list with the project (it shows it once, dismissible).
      const dashboard = dashboardClient(quarry.url);
      const owner = await dashboard.signIn("owner@tools.test", "owner-password-1");
      const me = await dashboard.ok<{ teams: { projects: { id: string }[] }[] }>(
        owner,
        "dashboard.account.me",
        undefined,
        "query",
      );
      const project = await dashboard.ok<{ unavailableFeatures: unknown }>(
        owner,
        "dashboard.projects.get",
        { projectId: me.teams[0]!.projects[0]!.id },
        "query",
      );
      expect(project.unavailableFeatures).toEqual(config.unavailable_features);

      // A .docx is read without LibreOffice; its page image needs it.
      const docx = await buildDocx({ body: wPara("Quarry safety plan") });
      const ingest = (await (await api.upload("plan.docx", Buffer.from(docx))).json()) as { build_id: string };
      expect((await api.waitForBuild(ingest.build_id)).status).toBe("Completed");
      const { file_id } = (await (await api.get(`/builds/${ingest.build_id}?suppress_elements=true`)).json()) as {
        file_id: string;
      };
      const shot = await api.get(`/${file_id}/pages/1/screenshot`);
      expect(shot.status).toBe(503);
      expect(((await shot.json()) as { detail: string }).detail).toMatch(
        /needs LibreOffice \(`soffice`\), which is not installed on this server; install it with: apt-get install/,
      );

      // A legacy .doc still fails its build with a message that names the tool.
      const doc = (await (await api.upload("old.doc", Buffer.from("not really a doc"))).json()) as { build_id: string };
      const failed = await api.waitForBuild(doc.build_id);
      expect(failed.status).toBe("Processing failed");
      expect(failed.error).toMatch(/LibreOffice \(`soffice`\)/);
    } finally {
      await quarry.dispose();
    }
  }, 300_000);
});
