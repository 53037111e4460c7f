import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { partitionDocument } from "@/server/parsing/partition";
import { getVisionModel } from "@/server/providers/vision";
import type { InternalMethod } from "@/server/parsing/methods.schema";
import { fmt, table, time } from "./stats";

/**
 * Pages per second of each partition method on the same PDF pages, next to the command-line tools that do the
 * comparable job: `pdftotext` for the text layer (fast) and `pdftoppm` + `tesseract` for OCR (balanced, accurate).
 */

const CORPUS = path.resolve(import.meta.dirname, "../../shared/corpus");

/** A text page with a table, a scanned page, and the first pages of a two-column paper. */
const FILES = [
  "layout-parser-paper-with-table.pdf",
  "loremipsum-flat-image-only.pdf",
  "dpr-paper-multi-column-13p.pdf",
];
const MAX_PAGES_PER_FILE = 3;

const METHODS: { name: string; method: InternalMethod }[] = [
  { name: "fast", method: "basic" },
  { name: "balanced", method: "hi_res" },
  { name: "accurate", method: "hi_res_ft" },
  { name: "auto", method: "auto" },
];

const has = (cmd: string, arg = "-v") => spawnSync(cmd, [arg]).status === 0;

/** Cuts each corpus PDF to its first pages, so OCR methods finish in minutes on two cores. */
const samplePdfs = async () => {
  const { PDFDocument } = await import("pdf-lib");
  const out: { name: string; bytes: Buffer; pages: number }[] = [];
  for (const name of FILES) {
    const source = await PDFDocument.load(readFileSync(path.join(CORPUS, name)));
    const count = Math.min(source.getPageCount(), MAX_PAGES_PER_FILE);
    const doc = await PDFDocument.create();
    for (const page of await doc.copyPages(
      source,
      Array.from({ length: count }, (_, i) => i),
    ))
      doc.addPage(page);
    out.push({ name, bytes: Buffer.from(await doc.save()), pages: count });
  }
  return out;
};

export const benchMethods = async () => {
  if (!existsSync(CORPUS)) return "methods: ../shared/corpus not found, skipped";
  const pdfs = await samplePdfs();
  const pages = pdfs.reduce((n, p) => n + p.pages, 0);
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-bench-methods-"));
  try {
    for (const p of pdfs) writeFileSync(path.join(dir, p.name), p.bytes);
    const rows: (string | number)[][] = [["path", "seconds", "pages/s"]];
    const rate = (ms: number) => fmt(pages / (ms / 1000), 2);

    if (has("pdftotext")) {
      const [, ms] = await time(async () => {
        for (const p of pdfs) spawnSync("pdftotext", ["-layout", path.join(dir, p.name), "-"], { maxBuffer: 64 << 20 });
      });
      rows.push(["pdftotext -layout", fmt(ms / 1000, 2), rate(ms)]);
    }
    if (has("tesseract", "--version") && has("pdftoppm")) {
      const [, ms] = await time(async () => {
        for (const p of pdfs) {
          const prefix = path.join(dir, `${p.name}-page`);
          spawnSync("pdftoppm", ["-r", "300", "-png", path.join(dir, p.name), prefix]);
          for (let i = 1; i <= p.pages; i++) {
            const digits = String(p.pages).length;
            spawnSync("tesseract", [`${prefix}-${String(i).padStart(digits, "0")}.png`, "-"], { maxBuffer: 64 << 20 });
          }
        }
      });
      rows.push(["pdftoppm -r 300 + tesseract CLI", fmt(ms / 1000, 2), rate(ms)]);
    }
    const failures: string[] = [];
    for (const { name, method } of METHODS) {
      const [, ms] = await time(async () => {
        for (const p of pdfs) {
          // fast fails on the scan by design (no text layer, no OCR): the time it took still counts.
          await partitionDocument(
            { bytes: p.bytes, fileName: p.name, fileType: "pdf", method },
            { providers: { vision: getVisionModel() } },
          ).catch((error) =>
            failures.push(`${name} on ${p.name}: ${error instanceof Error ? error.message.slice(0, 80) : error}`),
          );
        }
      });
      rows.push([`quarry ${name}`, fmt(ms / 1000, 2), rate(ms)]);
    }
    return [
      `Methods: ${pages} PDF pages (${pdfs.map((p) => `${p.name} ${p.pages}p`).join(", ")}), parsed in-process`,
      table(rows),
      ...failures.map((f) => `failed: ${f}`),
      "(agentic needs a vision model and is not measured here; auto uses balanced for scans without one)",
    ].join("\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
