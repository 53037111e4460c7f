import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfDoc, textDoc } from "../testing/fixtures";
import { apiClient, createToken, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { NUL_DETAIL } from "../input-guard";

/**
 * The limits every public route has (auth before the body, body sizes, NUL, rate, uploads, screenshots), each found
 * broken once by a hostile tester, over real HTTP against the running app.
 */

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;

/** Low enough that a burst runs into it even on a slow machine (1 request a second refills). */
const RATE_PER_MIN = 60;

beforeAll(async () => {
  quarry = await startQuarry({
    env: {
      QUARRY_RATE_LIMIT_PER_MIN: String(RATE_PER_MIN),
      QUARRY_UPLOADS_PER_TOKEN: "2",
      QUARRY_MAX_JSON_BODY_KB: "64",
    },
  });
  api = apiClient(quarry);
});
afterAll(async () => quarry?.dispose());

type Sent = { status: number | null; body: string; bytesSent: number; closed: boolean };

/**
 * Streams a body of `total` bytes (declared, or chunked when `declare` is false) and reports the answer and how much
 * of the body the server took before it answered and closed the connection.
 */
const streamBody = ({
  path,
  headers,
  total,
  declare = true,
  timeoutMs = 20_000,
}: {
  path: string;
  headers: Record<string, string>;
  total: number;
  declare?: boolean;
  timeoutMs?: number;
}) =>
  new Promise<Sent>((resolve) => {
    const url = new URL(`${api.base}${path}`);
    const result: Sent = { status: null, body: "", bytesSent: 0, closed: false };
    const req = request(url, {
      method: "POST",
      headers: { ...headers, ...(declare ? { "Content-Length": String(total) } : {}) },
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let stopped = false;
    const done = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const timer = setTimeout(done, timeoutMs);
    req.on("response", (res) => {
      result.status = res.statusCode ?? null;
      res.setEncoding("utf8");
      res.on("data", (d: string) => (result.body += d));
    });
    req.on("error", () => {
      result.closed = true; // the server ended the connection while the body was still being sent
      done();
    });
    req.on("close", () => {
      result.closed = true;
      done();
    });
    const pump = () => {
      while (!stopped && result.bytesSent < total) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - result.bytesSent));
        result.bytesSent += part.length;
        if (!req.write(part)) return void req.once("drain", pump);
      }
      if (!stopped) req.end();
    };
    pump();
  });

const multipartHead = (boundary: string, fileName: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
  `Content-Type: application/octet-stream\r\n\r\n`;

describe("authentication before the body", () => {
  it("answers 401 before reading a body, and closes the connection instead of draining it", async () => {
    const started = Date.now();
    const sent = await streamBody({
      path: "/prebuilt-rag",
      headers: { "Content-Type": "application/json" },
      total: 1024 * 1024 * 1024,
    });
    expect(sent.status).toBe(401);
    expect(JSON.parse(sent.body)).toEqual({ detail: "Invalid authentication credentials" });
    expect(sent.closed).toBe(true);
    // Before: the server read the whole gigabyte, then answered.
    expect(sent.bytesSent).toBeLessThan(64 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("stops reading a refused upload: 413 from Content-Length, then the connection closes", async () => {
    const boundary = "x".repeat(20);
    const sent = await streamBody({
      path: "/ingest-file",
      headers: { Authorization: `Bearer ${quarry.token}`, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      total: 1024 * 1024 * 1024,
    });
    expect(sent.status).toBe(413);
    expect(sent.closed).toBe(true);
    expect(sent.bytesSent).toBeLessThan(64 * 1024 * 1024);
  });
});

describe("JSON bodies", () => {
  const big = JSON.stringify({ query: "granite ".repeat(20_000) }); // ~160 KB, over the 64 KB set above

  it("refuses a body over the limit with 413, declared or chunked", async () => {
    const declared = await api.post("/prebuilt-rag", JSON.parse(big));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ detail: "Request body exceeds the maximum size of 64 KB" });
    const chunked = await streamBody({
      path: "/prebuilt-rag",
      headers: { Authorization: `Bearer ${quarry.token}`, "Content-Type": "application/json" },
      total: 16 * 1024 * 1024,
      declare: false,
    });
    expect(sent413(chunked)).toBe(true);
    expect(chunked.bytesSent).toBeLessThan(12 * 1024 * 1024);
  });
});

const sent413 = (sent: Sent) => sent.status === 413 && sent.body.includes("maximum size");

describe("U+0000 in string fields", () => {
  it("answers 400 naming the character in every place that gave a 500", async () => {
    const id = crypto.randomUUID();
    const nul = "a\u0000b";
    const answers = [
      await api.post("/prebuilt-rag", { query: nul }),
      await api.post("/prebuilt-rag", { query: "x", file_names: [nul] }),
      await api.get(`/get-elements?file_id=${id}&type=${encodeURIComponent(nul)}`),
      await api.get(`/get-elements?file_id=${id}&element_ids=${encodeURIComponent(nul)}`),
      await api.get(`/get-elements?file_id=${id}&elementsToRemove=${encodeURIComponent(nul)}`),
      await api.del({ file_name: nul }),
      await api.post("/elements", { file_name: nul }),
      await api.post("/elements", { file_id: id, filter: { type: nul } }),
      await api.post("/process", { file_name: nul }),
      await api.upload("a.txt", "hello", { method: nul }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: NUL_DETAIL });
    }
  });
});

describe("file size", () => {
  it("accepts a file of exactly 100 MB (104,857,600 bytes) and refuses one byte more", async () => {
    const exact = Buffer.alloc(104_857_600, 0x20);
    const ok = await api.upload("exact.pdf", exact, { indexing: "none", enrichment: "none" });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const { build_id } = (await ok.json()) as { build_id: string };
    const status = (await (await api.get(`/builds/${build_id}?suppress_elements=true`)).json()) as { file_id: string };
    expect((await api.del({ file_id: status.file_id })).status).toBe(200);
    const over = await api.upload("over.pdf", Buffer.alloc(104_857_601, 0x20));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ detail: "File exceeds the maximum size of 100 MB" });
  });
});

describe("per-token limits", () => {
  it("answers 429 Too many requests with Retry-After past the token's rate, other tokens unaffected", async () => {
    const busy = apiClient(quarry, createToken(quarry, "rate-a"));
    const calm = apiClient(quarry, createToken(quarry, "rate-b"));
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: RATE_PER_MIN * 3 }, () => busy.get("/config")));
    const refilled = Math.ceil((Date.now() - started) / 1000) + 1; // one a second at 60 a minute
    const limited = answers.filter((r) => r.status === 429);
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(RATE_PER_MIN + refilled);
    expect(limited.length).toBeGreaterThanOrEqual(RATE_PER_MIN * 2 - refilled);
    expect(await limited[0]!.json()).toEqual({ detail: "Too many requests" });
    expect(Number(limited[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await calm.get("/config")).status).toBe(200);
  });

  it("bounds concurrent uploads per token", async () => {
    const token = createToken(quarry, "uploads");
    const boundary = "b".repeat(24);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": `multipart/form-data; boundary=${boundary}` };
    // Two uploads that stay open (their bodies arrive slowly), then a third.
    const open = [0, 1].map(() => {
      const req = request(new URL(`${api.base}/ingest-file`), {
        method: "POST",
        headers: { ...headers, "Content-Length": String(10 * 1024 * 1024) },
      });
      req.on("error", () => undefined);
      req.write(multipartHead(boundary, "slow.txt"));
      return req;
    });
    await new Promise((r) => setTimeout(r, 1500));
    const third = await apiClient(quarry, token).upload("third.txt", textDoc(2));
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({ detail: "Too many requests" });
    expect(third.headers.get("retry-after")).toBeTruthy();
    open.forEach((req) => req.destroy());
    await new Promise((r) => setTimeout(r, 1000));
    const after = await apiClient(quarry, token).upload("after.txt", textDoc(2));
    expect(after.status, await after.clone().text()).toBe(200);
  });
});

/** Page-image worker processes the app runs right now. */
const screenshotWorkers = (appPid: number) => {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
      // Warm parse workers are the same script; a killed worker not yet reaped (Z) draws nothing.
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (ppid === appPid && state !== "Z" && args.includes("page-image")) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
};

describe("screenshots", () => {
  it(
    "draws at most QUARRY_SCREENSHOT_CONCURRENCY pages at once however many are asked for",
    { timeout: 240_000 },
    async () => {
      // Its own token: polling for the build must not use up the main token's requests.
      const writer = apiClient(quarry, createToken(quarry, "default"));
      const buildId = (
        (await (await writer.upload("shots.pdf", await pdfDoc({ pages: 3 }))).json()) as { build_id: string }
      ).build_id;
      const build = (await writer.waitForBuild(buildId)) as unknown as { file_id: string };
      const reader = apiClient(quarry, createToken(quarry, "default", "read"));
      let peak = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, screenshotWorkers(quarry.pid()!));
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const shots = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          reader.get(`/${build.file_id}/pages/${(i % 3) + 1}/screenshot?max_width=${300 + i}`),
        ),
      );
      sampling = false;
      await sampler;
      expect(shots.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(peak).toBeGreaterThanOrEqual(1);
      expect(peak).toBeLessThanOrEqual(2);
    },
  );
});

describe("logging", () => {
  it("does not log a 400 on an ingest form field as an error", async () => {
    const before = quarry.output().length;
    const res = await api.upload("a.txt", "hello", { enrichment: "bogus" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "Invalid enrichment 'bogus'. Valid values: full, none" });
    await new Promise((r) => setTimeout(r, 300));
    expect(quarry.output().slice(before)).not.toMatch(/procedure failed|"level":50|ZodError/);
  });
});
