import { afterAll, beforeAll, expect, it } from "vitest";
import { startProbe } from "../testing/health-probe";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * CI sample of `BENCH_ONLY=busy` (bench/busy.ts): while a large document builds with the default settings
 * (enrichment and indexing on), /api/health keeps answering promptly. One 100 MB upload made health calls time out
 * for a minute: the build's writes held the embedded database's one session, and health waited for it.
 */

const MB = 12;
const BOUND_MS = 2_500;

/** Prose in paragraphs and sections, about `mb` megabytes. */
const document = (mb: number) => {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 1024 * 1024; i++) {
    const text =
      i % 40 === 0
        ? `\nQuarry log, section ${i / 40}\n`
        : `Shipment ${i} of granite slabs left the quarry on day ${i % 365}, inspected for cracks by crew ${i % 97} ` +
          `and polished to grade ${i % 7}. Crew ${i % 89} logged batch ${i % 311} and its weight.\n`;
    parts.push(text);
    size += text.length + 1;
  }
  return parts.join("\n");
};

let quarry: QuarryProcess;

beforeAll(async () => {
  quarry = await startQuarry({ env: { QUARRY_RATE_LIMIT_PER_MIN: "0" } });
});
afterAll(async () => quarry?.dispose());

it(
  "answers health checks promptly while a large document builds with the defaults",
  { timeout: 1_200_000 },
  async () => {
    const api = apiClient(quarry);
    // As a load balancer probes: twice a second, 3 s timeout.
    const health = startProbe((signal) => fetch(`${quarry.url}/api/health`, { signal }), {
      intervalMs: 500,
      timeoutMs: 3_000,
    });
    const res = await api.upload("busy.txt", document(MB));
    expect(res.status).toBe(200);
    const { build_id } = (await res.json()) as { build_id: string };
    const build = await api.waitForBuild(build_id, 1_100_000);
    const report = await health.stop();
    process.stderr.write(`health during the build: ${report.calls} probes, max ${report.maxMs} ms\n`);
    expect(build.status).toBe("Completed");
    const slow = report.samples.filter((s) => !s.ok || s.ms > BOUND_MS);
    expect(slow, `${report.calls} probes, max ${report.maxMs} ms`).toEqual([]);
    expect(report.calls).toBeGreaterThan(10);
  },
);
