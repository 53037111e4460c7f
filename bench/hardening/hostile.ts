import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { fmt, table } from "../stats";
import { isReadable, sideLoop, waitForBuilds, watchMemory } from "./common";
import { HOSTILE_FORMATS, hostileFiles } from "./hostile-files";

/**
 * The hostile-file run: generated variants of every format (truncations, bit flips, repeated slices, noise, bad
 * encodings, bombs, deep nesting, loops) uploaded while a side loop calls the API. Every accepted file must end in
 * a terminal status, a failure must say why in a sentence, and the server must keep answering.
 */

export type HostileReport = {
  variants: number;
  refused: number;
  completed: number;
  failedReadable: number;
  failedUnreadable: { name: string; error: string | null }[];
  stuck: string[];
  uploadErrors: number;
  serverErrors: number;
  healthFailures: number;
  sideP99Ms: number;
  peakRssMb: number;
  seconds: number;
};

export const runHostile = async ({
  quarry,
  count,
  inFlight = 4,
  stuckAfterMs = 300_000,
}: {
  quarry: QuarryProcess;
  count: number;
  inFlight?: number;
  stuckAfterMs?: number;
}): Promise<HostileReport> => {
  const api = apiClient(quarry);
  const started = Date.now();
  const memory = watchMemory(quarry);
  const side = sideLoop(quarry);
  const report: HostileReport = {
    variants: 0,
    refused: 0,
    completed: 0,
    failedReadable: 0,
    failedUnreadable: [],
    stuck: [],
    uploadErrors: 0,
    serverErrors: 0,
    healthFailures: 0,
    sideP99Ms: 0,
    peakRssMb: 0,
    seconds: 0,
  };
  const one = async (file: { name: string; bytes: Buffer }) => {
    report.variants += 1;
    const res = await api.upload(file.name, file.bytes, { method: "fast", indexing: "none" }).catch(() => null);
    if (!res) return void (report.uploadErrors += 1);
    if (res.status >= 500) report.serverErrors += 1;
    if (res.status !== 200) return void (report.refused += 1);
    const { build_id } = (await res.json()) as { build_id: string };
    const outcome = (await waitForBuilds(quarry, [build_id], stuckAfterMs)).get(build_id);
    if (!outcome || !["Completed", "Completed with errors", "Processing failed"].includes(outcome.status)) {
      report.stuck.push(file.name);
    } else if (outcome.status === "Processing failed") {
      if (isReadable(outcome.error)) report.failedReadable += 1;
      else report.failedUnreadable.push({ name: file.name, error: outcome.error });
    } else report.completed += 1;
  };
  const running = new Set<Promise<void>>();
  for await (const file of hostileFiles(count)) {
    const task = one(file).finally(() => running.delete(task));
    running.add(task);
    if (running.size >= inFlight) await Promise.race(running);
  }
  await Promise.all(running);
  const side_ = await side.stop();
  report.serverErrors += side_.serverErrors;
  report.healthFailures = side_.healthFailures;
  report.sideP99Ms = side_.p99Ms;
  report.peakRssMb = memory.stop().peakMb;
  report.seconds = (Date.now() - started) / 1000;
  return report;
};

export const formatHostile = (r: HostileReport) =>
  `Hostile files: ${r.variants} variants of ${HOSTILE_FORMATS.length} formats in ${fmt(r.seconds, 0)} s\n` +
  table([
    [
      "refused at upload (4xx)",
      "completed",
      "failed, readable reason",
      "failed, unreadable",
      "stuck",
      "5xx",
      "health failures",
      "side loop p99",
      "peak RSS",
    ],
    [
      r.refused,
      r.completed,
      r.failedReadable,
      r.failedUnreadable.length,
      r.stuck.length,
      r.serverErrors,
      r.healthFailures,
      `${fmt(r.sideP99Ms, 0)} ms`,
      `${fmt(r.peakRssMb, 0)} MB`,
    ],
  ]) +
  (r.failedUnreadable.length ? `\nunreadable: ${JSON.stringify(r.failedUnreadable.slice(0, 5))}` : "") +
  (r.stuck.length ? `\nstuck: ${r.stuck.slice(0, 10).join(", ")}` : "");
