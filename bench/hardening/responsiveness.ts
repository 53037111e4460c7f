import { startHealthProbe } from "@/server/testing/health-probe";
import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { textDoc } from "@/server/testing/fixtures";
import { fmt } from "../stats";
import { waitForBuilds } from "./common";

/**
 * How responsive the server stays while it ingests one large document: /api/health every 100 ms from upload to the
 * build's end. One 100 MB upload once made every call wait for minutes (parse output read as one JSON, rows
 * inserted, chunked, embedded and enriched on the thread that serves HTTP).
 */
export const runResponsiveness = async ({
  quarry,
  mb,
  indexing = "full",
}: {
  quarry: QuarryProcess;
  mb: number;
  indexing?: string;
}) => {
  const api = apiClient(quarry);
  const content = textDoc(Math.round((mb * 1024 * 1024) / 230), "granite");
  const probe = startHealthProbe(quarry.url);
  const started = Date.now();
  const res = await api.upload("responsiveness.txt", content, { indexing });
  const { build_id } = (await res.json()) as { build_id: string };
  const build = (await waitForBuilds(quarry, [build_id], 3_600_000)).get(build_id);
  const health = await probe.stop();
  return {
    mb,
    indexing,
    status: build?.status ?? "unknown",
    seconds: (Date.now() - started) / 1000,
    ...health,
    samples: undefined,
  };
};

export const formatResponsiveness = (r: Awaited<ReturnType<typeof runResponsiveness>>) =>
  `Responsiveness: /api/health every 100 ms while a ${r.mb} MB text ingests (indexing ${r.indexing}, ${r.status} in ` +
  `${fmt(r.seconds, 0)} s): ${r.calls} calls, max ${r.maxMs} ms, p99 ${r.p99Ms} ms, p50 ${r.p50Ms} ms, ${r.failures} failed`;
