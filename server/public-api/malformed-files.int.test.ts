import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfDoc } from "../testing/fixtures";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * A stream of broken files of every binary format: each build must end `Processing failed` with an error a person
 * can read, and the server must keep answering throughout (parsers run in worker processes with limits).
 */

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  quarry = await startQuarry({ env: { QUARRY_JOB_CONCURRENCY: "2" } });
  api = apiClient(quarry);
});
afterAll(async () => quarry?.dispose());

/** Deterministic noise, so a failure can be reproduced. */
const noise = (size: number, seed = 7) => {
  const out = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x >> 16;
  }
  return out;
};

const zipOf = async (files: Record<string, string | Buffer>) => {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
};

const truncated = (bytes: Buffer, fraction = 0.45) => bytes.subarray(0, Math.floor(bytes.length * fraction));

/** CFB (legacy Office) signature followed by noise. */
const cfb = () => Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), noise(8192, 3)]);

const brokenFiles = async (): Promise<[string, Buffer][]> => {
  const pdf = await pdfDoc({ pages: 3 });
  const docx = await zipOf({
    "[Content_Types].xml":
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    "word/document.xml": "<w:document><w:body><w:p><w:r><w:t>Granite",
  });
  return [
    ["truncated.pdf", truncated(pdf)],
    ["noise.pdf", noise(4000)],
    ["truncated.docx", truncated(docx, 0.6)],
    ["not-a-zip.docx", noise(3000)],
    ["broken-xml.docx", docx],
    ["noise.pptx", noise(3000, 11)],
    ["noise.xlsx", noise(3000, 13)],
    ["noise.odt", noise(3000, 17)],
    ["noise.doc", cfb()],
    ["noise.ppt", cfb()],
    ["noise.xls", cfb()],
    ["noise.png", Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), noise(2000)])],
    ["noise.jpg", Buffer.concat([Buffer.from("ffd8ffe0", "hex"), noise(2000)])],
    ["noise.tiff", Buffer.concat([Buffer.from("49492a00", "hex"), noise(2000)])],
    ["noise.bmp", Buffer.concat([Buffer.from("424d", "hex"), noise(2000)])],
    ["noise.heic", noise(2000, 19)],
    ["noise.mp3", noise(5000, 23)],
    ["noise.wav", Buffer.concat([Buffer.from("RIFF"), noise(3000, 29)])],
    ["noise.m4a", noise(3000, 31)],
    ["noise.ogg", Buffer.concat([Buffer.from("OggS"), noise(3000, 37)])],
    ["noise.flac", Buffer.concat([Buffer.from("fLaC"), noise(3000, 41)])],
    ["noise.mp4", noise(5000, 43)],
    ["noise.mov", noise(3000, 47)],
    ["noise.avi", Buffer.concat([Buffer.from("RIFF"), noise(3000, 53)])],
    ["noise.mkv", Buffer.concat([Buffer.from("1a45dfa3", "hex"), noise(3000, 59)])],
    ["noise.webm", Buffer.concat([Buffer.from("1a45dfa3", "hex"), noise(3000, 61)])],
  ];
};

describe("malformed files", () => {
  it("fail one by one with a readable error while the server keeps answering", { timeout: 900_000 }, async () => {
    let healthChecks = 0;
    let healthFailures = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const res = await fetch(`${quarry.url}/api/health`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
        healthChecks++;
        if (res?.status !== 200) healthFailures++;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const files = await brokenFiles();
    const builds: [string, string][] = [];
    for (const [name, bytes] of files) {
      const res = await api.upload(name, bytes);
      expect(res.status, name).toBe(200);
      builds.push([name, ((await res.json()) as { build_id: string }).build_id]);
    }
    const outcomes: Record<string, { status: string; error: string | null }> = {};
    for (const [name, id] of builds) outcomes[name] = await api.waitForBuild(id, 600_000);
    polling = false;
    await poll;

    for (const [name] of files) {
      const { status, error } = outcomes[name]!;
      expect({ name, status }).toEqual({ name, status: "Processing failed" });
      expect(error, name).toMatch(/\w{3,}/);
      // Written for a person: no stack traces, no internal paths.
      expect(error, name).not.toMatch(/\n\s+at |node_modules|\/tmp\//);
    }
    expect(healthChecks).toBeGreaterThan(5);
    expect(healthFailures).toBe(0);
  });

  it("refuses a decompression bomb dressed as a .docx", async () => {
    const bomb = await zipOf({
      "[Content_Types].xml": '<?xml version="1.0"?><Types/>',
      "word/document.xml": Buffer.alloc(40 * 1024 * 1024, 0x20),
    });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await api.upload("bomb.docx", bomb);
    const { build_id } = (await res.json()) as { build_id: string };
    const build = await api.waitForBuild(build_id, 120_000);
    expect(build.status).toBe("Processing failed");
    expect(build.error).toMatch(/ZIP bomb|expands|compress/i);
  });
});

describe("a build past the per-document time budget", () => {
  // A stand-in for LibreOffice that never finishes a conversion; its child plays soffice.bin and notes its pid.
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-fake-soffice-"));
  const pids = path.join(dir, "pids");
  const fake = path.join(dir, "soffice");
  writeFileSync(fake, `#!/bin/sh\nsleep 600 &\necho $! >> ${pids}\nwait\n`);
  chmodSync(fake, 0o755);
  let slow: QuarryProcess;

  beforeAll(async () => {
    slow = await startQuarry({ env: { QUARRY_PARSE_TIMEOUT_S: "15", QUARRY_SOFFICE_PATH: fake } });
  }, 300_000);
  afterAll(async () => {
    await slow?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it(
    "fails a LibreOffice conversion that never ends with a sentence naming it, and leaves no LibreOffice behind",
    {
      timeout: 180_000,
    },
    async () => {
      const client = apiClient(slow);
      const docx = await zipOf({
        "[Content_Types].xml":
          '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
        "word/document.xml":
          '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Granite</w:t></w:r></w:p></w:body></w:document>',
      });
      // A legacy .doc is converted to .docx first; any method reads a .docx's pages from LibreOffice's PDF of it.
      const uploads: [string, Buffer, Record<string, string>][] = [
        ["legacy.doc", cfb(), { method: "fast", indexing: "none" }],
        ["pages.docx", docx, { method: "balanced", indexing: "none" }],
      ];
      const started = Date.now();
      for (const [name, bytes, fields] of uploads) {
        const res = await client.upload(name, bytes, fields);
        expect(res.status, name).toBe(200);
        const { build_id } = (await res.json()) as { build_id: string };
        const build = await client.waitForBuild(build_id, 120_000);
        expect({ name, ...build }).toMatchObject({
          name,
          status: "Processing failed",
          error: "Parsing ran out of time after 15 s (QUARRY_PARSE_TIMEOUT_S) while converting with LibreOffice",
        });
      }
      expect(Date.now() - started).toBeLessThan(120_000);
      const leftovers = readFileSync(pids, "utf8").trim().split("\n").map(Number);
      expect(leftovers).toHaveLength(2);
      await expect.poll(() => leftovers.filter(alive), { timeout: 10_000 }).toEqual([]);
    },
  );
});
