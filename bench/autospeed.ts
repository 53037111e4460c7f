import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { InternalMethod } from "@/server/parsing/methods.schema";
import { partitionDocument } from "@/server/parsing/partition";
import type { ParsedElement } from "@/server/parsing/types";
import { qualityDir } from "./quality/run";
import { fmt, percentile, table } from "./stats";

/**
 * `BENCH_ONLY=autospeed`: per born-digital PDF, whole, the CPU time of `auto` next to `fast` and `pdftotext`
 * (in-process, median of BENCH_AUTOSPEED_RUNS runs after one warm-up; CPU, not wall time, because the machine is
 * shared), whether auto's elements are fast's, and a
 * digest of each output so two checkouts can be compared (same digest = same elements). Documents: the text-layer
 * PDFs of ../shared/corpus and of the quality folder (bench/quality/manifest.ts), when present, and a report made
 * here with pages of little text.
 */

const CORPUS = path.resolve(import.meta.dirname, "../../shared/corpus");
/** Corpus PDFs without a text layer: auto OCRs them, fast cannot read them; not what this run measures. */
const SCANS = new Set(["loremipsum-flat-image-only.pdf", "pdf-with-ocr-text.pdf"]);

const pdfsIn = (dir: string | null): string[] => {
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".pdf") && !SCANS.has(path.basename(f)))
    .sort()
    .map((f) => path.join(dir, f));
};

/**
 * An 18-page report made here (pdf-lib, Helvetica, no file copied): a cover with a large photo, text pages, and chart
 * pages holding a picture, a few hundred vector strokes and a one-line caption. Cover and chart pages have little
 * text: the pages whose drawings auto checks for a scan.
 */
const generatedReport = async (): Promise<Uint8Array> => {
  const { PDFDocument, StandardFonts, rgb } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const side = 256;
  const pixels = Buffer.alloc(side * side * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  const sharp = (await import("sharp")).default;
  const photo = await doc.embedPng(
    await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
      .png()
      .toBuffer(),
  );
  const words = "the quarterly figures of every region were collected checked and compared with the year before".split(
    " ",
  );
  for (let n = 1; n <= 18; n++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Annual report ${n}`, { x: 72, y: 40, size: 9, font });
    if (n === 1 || n % 3 === 0) {
      page.drawImage(photo, { x: 100, y: 300, width: 400, height: 300 });
      for (let i = 0; i < 300; i++) {
        const x = 100 + (i % 100) * 4;
        page.drawLine({ start: { x, y: 120 }, end: { x: x + 2, y: 120 + ((i * 37) % 150) }, color: rgb(0, 0, 0.5) });
      }
      page.drawText(`Figure ${n}: sales by region`, { x: 100, y: 100, size: 10, font });
      continue;
    }
    for (let line = 0; line < 45; line++) {
      const text = Array.from({ length: 14 }, (_, i) => words[(line * 5 + i + n) % words.length]).join(" ");
      page.drawText(text, { x: 72, y: 740 - line * 15, size: 10, font });
    }
  }
  return doc.save();
};

/** What a reader sees of an element: auto's `method` tag (which path read the page) is left out. */
const visible = (e: ParsedElement) => {
  const metadata = { ...e.metadata };
  delete metadata.method;
  return { type: e.type, text: e.text, html: e.html ?? null, page: e.pageNumber, box: e.boundingBox, metadata };
};

const digest = (elements: ParsedElement[]) =>
  createHash("sha256")
    .update(JSON.stringify(elements.map(visible)))
    .digest("hex")
    .slice(0, 12);

const parse = (bytes: Uint8Array, name: string, method: InternalMethod) =>
  partitionDocument({ bytes, fileName: name, fileType: "pdf", method }, {});

/** CPU milliseconds of this process (the parse runs in it, PDFium included): steadier than wall time on a shared machine. */
const cpuMs = async (work: () => Promise<unknown>) => {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

/** pdftotext's own CPU milliseconds, as /usr/bin/time reports them. */
const pdftotextMs = (file: string) => {
  const run = spawnSync("/usr/bin/time", ["-f", "%U %S", "pdftotext", file, "/dev/null"], { encoding: "utf8" });
  const [user, system] = (run.stderr.trim().split("\n").pop() ?? "").split(" ").map(Number);
  return ((user ?? NaN) + (system ?? NaN)) * 1000;
};

const medianMs = async (runs: number, measure: () => Promise<number>) => {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await measure());
  return percentile(times, 50);
};

/**
 * What a new parse worker pays for its first PDF: loading the method's modules and parsing, in a fresh process (CPU
 * milliseconds, tsx's own start left out: measured from the first import).
 */
const firstParseMs = (file: string, method: InternalMethod): number => {
  const run = spawnSync(process.execPath, ["--import", "tsx", import.meta.filename, "--first-parse", file, method], {
    encoding: "utf8",
  });
  return Number(run.stdout.trim().split("\n").pop());
};

if (process.argv[2] === "--first-parse") {
  const [file, method] = process.argv.slice(3) as [string, InternalMethod];
  const ms = await cpuMs(async () => {
    const { partitionDocument: parseFresh } = await import("@/server/parsing/partition");
    await parseFresh({ bytes: new Uint8Array(readFileSync(file)), fileName: "x.pdf", fileType: "pdf", method }, {});
  });
  process.stdout.write(`${ms}\n`);
}

export const benchAutoSpeed = async (): Promise<string> => {
  const files = [...pdfsIn(existsSync(CORPUS) ? CORPUS : null), ...pdfsIn(qualityDir())];
  const runs = Number(process.env.BENCH_AUTOSPEED_RUNS ?? 3);
  const rows: (string | number)[][] = [
    [
      "document",
      "pages",
      "pdftotext cpu s",
      "fast cpu s",
      "auto cpu s",
      "auto/fast",
      "same",
      "fast digest",
      "auto digest",
    ],
  ];
  let totals = { pdftotext: 0, fast: 0, auto: 0 };
  const work = mkdtempSync(path.join(tmpdir(), "quarry-autospeed-"));
  const report = path.join(work, "generated-report-18p.pdf");
  writeFileSync(report, await generatedReport());
  files.push(report);
  for (const file of files) {
    const name = path.basename(file);
    const bytes = new Uint8Array(readFileSync(file));
    // Warm-up: the first parse of a process compiles the code paths and loads the PDF engine.
    const fast = await parse(bytes, name, "basic");
    const auto = await parse(bytes, name, "auto");
    const textMs = await medianMs(runs, async () => pdftotextMs(file));
    // Alternated, so neither method gains from running after the other has warmed the engine.
    const fastTimes: number[] = [];
    const autoTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      fastTimes.push(await cpuMs(() => parse(bytes, name, "basic")));
      autoTimes.push(await cpuMs(() => parse(bytes, name, "auto")));
    }
    const [fastMs, autoMs] = [percentile(fastTimes, 50), percentile(autoTimes, 50)];
    totals = { pdftotext: totals.pdftotext + textMs, fast: totals.fast + fastMs, auto: totals.auto + autoMs };
    const [f, a] = [digest(fast.elements), digest(auto.elements)];
    rows.push([
      name,
      fast.totalPages ?? 0,
      fmt(textMs / 1000, 3),
      fmt(fastMs / 1000, 3),
      fmt(autoMs / 1000, 3),
      fmt(autoMs / fastMs, 2),
      f === a ? "yes" : "no",
      f,
      a,
    ]);
  }
  rows.push([
    "all",
    "",
    fmt(totals.pdftotext / 1000, 2),
    fmt(totals.fast / 1000, 2),
    fmt(totals.auto / 1000, 2),
    fmt(totals.auto / totals.fast, 2),
    "",
    "",
    "",
  ]);
  const first = files[0] ?? "";
  const fresh = (method: InternalMethod) =>
    percentile(
      [1, 2, 3].map(() => firstParseMs(first, method)),
      50,
    );
  const [freshFast, freshAuto] = [fresh("basic"), fresh("auto")];
  rmSync(work, { recursive: true, force: true });
  return [
    `Auto vs fast on ${files.length} born-digital PDFs, whole, in-process (CPU seconds, median of ${runs} runs after a warm-up)`,
    table(rows),
    `First parse in a new process (a new parse worker), ${path.basename(first)}: fast ${fmt(freshFast / 1000, 3)} s,` +
      ` auto ${fmt(freshAuto / 1000, 3)} s CPU (median of 3; modules loaded on first use included)`,
    "(same = auto's elements equal fast's, its per-page method tag aside; digests compare outputs across checkouts)",
  ].join("\n");
};
