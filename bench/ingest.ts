import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { partitionDocument } from "@/server/parsing/partition";
import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { fmt, table, time } from "./stats";

/**
 * Ingest throughput on the shared corpus's PDFs, repeated until at least 200 pages: Quarry's fast parse in-process,
 * `pdftotext` on the same files, and end to end through the API (upload → Completed, the default method and
 * enrichment) on a server that has ingested one document of each before (the first ones' time is printed apart).
 */

const CORPUS = path.resolve(import.meta.dirname, "../../shared/corpus");
const MIN_PAGES = 200;

type Pdf = { name: string; bytes: Buffer; pages: number };

const corpusPdfs = async (): Promise<Pdf[]> => {
  const files = readdirSync(CORPUS).filter((f) => f.endsWith(".pdf"));
  const pdfs: Pdf[] = [];
  for (const name of files) {
    const bytes = readFileSync(path.join(CORPUS, name));
    // Image-only PDFs have no text layer: fast fails on them by design, so they are not a throughput figure.
    const parsed = await partitionDocument({ bytes, fileName: name, fileType: "pdf", method: "basic" }).catch(
      () => null,
    );
    if (parsed) pdfs.push({ name, bytes, pages: parsed.totalPages ?? 0 });
  }
  return pdfs;
};

const repeatTo = (pdfs: Pdf[], minPages: number) => {
  const out: Pdf[] = [];
  let pages = 0;
  while (pages < minPages) {
    for (const pdf of pdfs) {
      out.push(pdf);
      pages += pdf.pages;
    }
  }
  return { files: out, pages };
};

export const benchIngest = async (quarry: QuarryProcess) => {
  if (!existsSync(CORPUS)) return "ingest: ../shared/corpus not found, skipped";
  const pdfs = await corpusPdfs();
  const { files, pages } = repeatTo(pdfs, MIN_PAGES);

  const [, parseMs] = await time(async () => {
    for (const f of files)
      await partitionDocument({ bytes: f.bytes, fileName: f.name, fileType: "pdf", method: "basic" });
  });

  let pdftotextMs = NaN;
  if (spawnSync("pdftotext", ["-v"]).status === 0) {
    [, pdftotextMs] = await time(async () => {
      for (const f of files)
        spawnSync("pdftotext", ["-layout", path.join(CORPUS, f.name), "-"], { maxBuffer: 64 << 20 });
    });
  }

  const api = apiClient(quarry);
  const ingest = async (batch: Pdf[]) => {
    const ids: string[] = [];
    for (const f of batch) {
      const res = await api.upload(f.name, f.bytes);
      ids.push(((await res.json()) as { build_id: string }).build_id);
    }
    for (const id of ids) {
      const b = await api.waitForBuild(id, 600_000);
      if (b.status !== "Completed") throw new Error(`bench build ${id} ended ${b.status}: ${b.error}`);
    }
  };
  // The first documents after a start pay for starting a parse worker and the CPU thread, loading the PDF engine and
  // compiling the code paths they take (seconds of CPU, once per process): measured apart, then the batch on the
  // server as it runs from then on.
  const [, coldMs] = await time(() => ingest(pdfs));
  const [, e2eMs] = await time(() => ingest(files));

  const rate = (ms: number) => pages / (ms / 1000);
  return [
    `Ingest: ${files.length} PDFs (${pdfs.map((p) => `${p.name} ${p.pages}p`).join(", ")} repeated), ${pages} pages`,
    table([
      ["path", "seconds", "pages/s", "vs pdftotext"],
      ["pdftotext -layout", fmt(pdftotextMs / 1000, 2), fmt(rate(pdftotextMs)), "1.00"],
      ["quarry fast parse", fmt(parseMs / 1000, 2), fmt(rate(parseMs)), fmt(pdftotextMs / parseMs, 2)],
      ["quarry end to end (API)", fmt(e2eMs / 1000, 2), fmt(rate(e2eMs)), fmt(pdftotextMs / e2eMs, 2)],
    ]),
    `("vs pdftotext" = pdftotext time / Quarry time; below 1 means slower than pdftotext)`,
    `First documents after the server started (one of each PDF, before the batch): ${fmt(coldMs / 1000, 2)} s for ` +
      `${pdfs.reduce((n, p) => n + p.pages, 0)} pages (starting the parse worker and CPU thread, compiling on first use)`,
  ].join("\n");
};
