import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startS3StandIn, type S3StandIn } from "../testing/s3-stand-in";
import { createS3FileStore } from "./s3-store";

/** `npm run quarry -- storage migrate`, run as a person runs it, into s3rver through the real client. */

const ROOT = path.resolve(import.meta.dirname, "../..");
let s3: S3StandIn;
const dataDir = mkdtempSync(path.join(tmpdir(), "quarry-migrate-"));
const files = path.join(dataDir, "files");

const FILES: Record<string, Buffer> = {
  "projects/p1/sources/s1/original.pdf": Buffer.from("%PDF-1.4 not really"),
  "projects/p1/sources/s1/converted.pdf": Buffer.alloc(3 * 1024 * 1024, 3),
  "projects/p1/sources/s2/snapshot-0e2b6a1c-1111-4222-8333-944455556666/manifest.json": Buffer.from("{}"),
  "projects/p2/sources/s3/original.txt": Buffer.alloc(0),
};

/** The CLI as a child process; asynchronously, since s3rver answers from this process's event loop. */
const migrate = () =>
  new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/quarry.ts", "storage", "migrate"],
      { cwd: ROOT, env: { ...process.env, ...s3.env, QUARRY_DATA_DIR: dataDir, LOG_LEVEL: "warn" }, encoding: "utf8" },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: stdout + stderr }),
    );
  });

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  s3 = await startS3StandIn();
  for (const [key, bytes] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(files, key)), { recursive: true });
    writeFileSync(path.join(files, key), bytes);
  }
  // A write in progress of the local store: not a file yet, never copied.
  writeFileSync(path.join(files, "projects/p1/sources/s1/original.pdf.123.456.part"), "half");
});

afterAll(async () => {
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("copies every file, verifies it, and copies again only what is missing or different", async () => {
  const first = await migrate();
  expect(first.code, first.stdout).toBe(0);
  expect(first.stdout).toContain(`Copying ${files} to the bucket "${s3.bucket}" at ${s3.endpoint}`);
  expect(first.stdout).toContain("[1/4] copied: projects/p1/sources/s1/converted.pdf (3.0 MB)");
  expect(first.stdout).toContain("4 objects: 4 copied (3.0 MB), 0 already there, 0 failed");
  expect(await s3.keys()).toEqual(Object.keys(FILES).sort());
  const store = createS3FileStore(s3.settings);
  for (const [key, bytes] of Object.entries(FILES)) expect(sha(await store.read(key)), key).toBe(sha(bytes));

  const again = await migrate();
  expect(again.code, again.stdout).toBe(0);
  expect(again.stdout).toContain("4 objects: 0 copied (0.0 MB), 4 already there, 0 failed");

  // An object damaged in the bucket (same size, other bytes) and one gone: both are copied again.
  await store.put("projects/p1/sources/s1/original.pdf", Readable.from([Buffer.from("%PDF-1.4 not REALLY")]));
  await store.delete("projects/p2/sources/s3/original.txt");
  const repair = await migrate();
  expect(repair.code, repair.stdout).toBe(0);
  expect(repair.stdout).toContain("copied: projects/p1/sources/s1/original.pdf");
  expect(repair.stdout).toContain("4 objects: 2 copied (0.0 MB), 2 already there, 0 failed");
  expect(sha(await store.read("projects/p1/sources/s1/original.pdf"))).toBe(
    sha(FILES["projects/p1/sources/s1/original.pdf"]!),
  );
});

it("stops with the reason when the bucket cannot be used", async () => {
  const saved = s3.env.S3_BUCKET;
  s3.env.S3_BUCKET = "missing-bucket";
  try {
    const run = await migrate();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `the bucket "missing-bucket" at ${s3.endpoint} cannot be used: the bucket does not exist`,
    );
  } finally {
    s3.env.S3_BUCKET = saved!;
  }
});
