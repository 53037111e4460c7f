import { afterAll, beforeAll, expect, it } from "vitest";
import { runCrash } from "@/bench/hardening/crash";
import { runHostile } from "@/bench/hardening/hostile";
import { runLoad } from "@/bench/hardening/load";
import { runResponsiveness } from "@/bench/hardening/responsiveness";
import { startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * Small, fast samples of the bench's hardening runs (`npm run bench`, BENCH_ONLY=hostile,load,crash,responsiveness),
 * on one app: what they find must hold in CI too. The full runs are in bench/hardening/.
 */

let quarry: QuarryProcess;

beforeAll(async () => {
  quarry = await startQuarry({ env: { QUARRY_PARSE_TIMEOUT_S: "120", QUARRY_RATE_LIMIT_PER_MIN: "0" } });
});
afterAll(async () => quarry?.dispose());

it("keeps answering health checks while it ingests a large document", { timeout: 900_000 }, async () => {
  // 8 MB of text: before parsing, storing and enriching moved off the request thread, health calls waited 12 s.
  const report = await runResponsiveness({ quarry, mb: 8, indexing: "none" });
  expect(report.status).toBe("Completed");
  expect(report.failures).toBe(0);
  expect(report.maxMs).toBeLessThan(5_000);
});

it("ends every hostile file with a readable status and keeps serving", { timeout: 900_000 }, async () => {
  const report = await runHostile({ quarry, count: 62, stuckAfterMs: 240_000 });
  expect(report.stuck).toEqual([]);
  expect(report.failedUnreadable).toEqual([]);
  expect(report.serverErrors).toBe(0);
  expect(report.healthFailures).toBe(0);
  expect(report.uploadErrors).toBe(0);
  expect(report.completed + report.failedReadable + report.refused).toBe(62);
});

it("serves concurrent clients without errors", { timeout: 300_000 }, async () => {
  const report = await runLoad({ quarry, clients: 8, seconds: 20 });
  expect(report.errorSamples).toEqual([]);
  expect(report.errors).toBe(0);
  expect(report.requests).toBeGreaterThan(20);
});

it("loses nothing to a kill -9 during ingests", { timeout: 900_000 }, async () => {
  const report = await runCrash({ quarry, rounds: 1, ingests: 8 });
  expect(report.accepted).toBe(8);
  expect(report).toMatchObject({ stuck: 0, lost: 0, orphans: 0, duplicates: 0 });
});
