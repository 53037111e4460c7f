import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { pdfDoc, markdownDoc, textDoc } from "@/server/testing/fixtures";
import { table } from "../stats";
import { orphanRows, outsideDb, TERMINAL, waitForBuilds } from "./common";
import { prng } from "./hostile-files";

/**
 * The crash run: `ingests` uploads, a kill -9 of the whole app (and its parse workers) at a random moment while they
 * are processed, a restart on the same data dir; `rounds` times. Reports builds that never finish, rows that belong
 * to nothing, and sources that were accepted but are gone or never completed.
 */

export type CrashReport = {
  rounds: number;
  ingests: number;
  accepted: number;
  stuck: number;
  lost: number;
  orphans: number;
  duplicates: number;
};

export const runCrash = async ({
  quarry,
  rounds,
  ingests,
  seed = 1,
}: {
  quarry: QuarryProcess;
  rounds: number;
  ingests: number;
  seed?: number;
}) => {
  const api = apiClient(quarry);
  const rand = prng(seed);
  const accepted: string[] = [];
  const pdf = await pdfDoc({ pages: 8 });
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < ingests; i++) {
      const [name, content] =
        i % 3 === 0
          ? [`crash-${round}-${i}.pdf`, pdf]
          : i % 3 === 1
            ? [`crash-${round}-${i}.md`, markdownDoc(`Slate ${i}`)]
            : [`crash-${round}-${i}.txt`, textDoc(300, `marble${i}`)];
      const res = await api.upload(name, content);
      if (res.status === 200) accepted.push(((await res.json()) as { build_id: string }).build_id);
    }
    // Pull the plug at a random moment while they are processed (parse workers, steps, inserts in flight).
    await new Promise((r) => setTimeout(r, 500 + rand() * Math.min(20_000, ingests * 400)));
    await quarry.kill("SIGKILL");
    await quarry.restart();
  }
  const last = await waitForBuilds(quarry, accepted, 600_000);
  const stuck = accepted.filter((id) => !TERMINAL.has(last.get(id)?.status ?? "")).length;
  const lost = accepted.filter((id) => {
    const b = last.get(id);
    return !b || b.status === "not_found" || (TERMINAL.has(b.status) && b.status !== "Completed");
  }).length;
  const db = await outsideDb(quarry);
  try {
    const orphans = await orphanRows(db);
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM (SELECT build_id, position FROM public.elements GROUP BY 1, 2 HAVING count(*) > 1) d",
    );
    return {
      rounds,
      ingests,
      accepted: accepted.length,
      stuck,
      lost,
      orphans,
      duplicates: rows[0]?.n ?? 0,
    } satisfies CrashReport;
  } finally {
    await db.end();
  }
};

export const formatCrash = (r: CrashReport) =>
  `Crash: kill -9 during ${r.ingests} ingests, ${r.rounds} times (${r.accepted} uploads accepted)\n` +
  table([
    ["stuck builds", "lost sources", "orphan rows", "duplicate elements"],
    [r.stuck, r.lost, r.orphans, r.duplicates],
  ]);
