import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { InternalMethod } from "@/server/parsing/methods.schema";
import { partitionDocument } from "@/server/parsing/partition";
import { extractionOf, scoreExtraction, type Reference, type Scores } from "@/server/parsing/quality";
import { getVisionModel } from "@/server/providers/vision";
import { fmt, table, time } from "../stats";
import { camelotTables } from "./camelot";
import { csvTables } from "./csv-tables";
import { tabulaTables } from "./tabula-json";
import { QUALITY_DOCS, type QualityDoc } from "./manifest";
import {
  icdarTables,
  monospaceListings,
  pdftotextReference,
  structTreeReference,
  unstructuredReference,
} from "./references";

/**
 * `BENCH_ONLY=quality`: each document of the manifest (first BENCH_QUALITY_PAGES pages, default 3) through every
 * method, scored against its references; documents marked `scan` also as an image-only PDF made from their pages.
 * BENCH_QUALITY_METHODS picks methods (default fast,balanced,accurate,auto).
 */

const METHODS: Record<string, InternalMethod> = {
  fast: "basic",
  balanced: "hi_res",
  accurate: "hi_res_ft",
  auto: "auto",
};

export const qualityDir = (): string | null => {
  const candidates = [process.env.QUARRY_QUALITY_DIR, path.resolve(import.meta.dirname, "../../../shared/quality")];
  return candidates.find((dir): dir is string => !!dir && existsSync(dir)) ?? null;
};

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The first `pages` pages, or the listed ones (1-based) when a document names its pages. */
const firstPages = async (bytes: Uint8Array, pages: number, only?: number[]) => {
  const { PDFDocument } = await import("pdf-lib");
  const source = await PDFDocument.load(bytes, { ignoreEncryption: true });
  const count = Math.min(source.getPageCount(), pages);
  if (!only && count === source.getPageCount()) return { bytes, pages: count };
  const indices = only ? only.map((p) => p - 1) : Array.from({ length: count }, (_, i) => i);
  const doc = await PDFDocument.create();
  for (const page of await doc.copyPages(source, indices)) doc.addPage(page);
  return { bytes: await doc.save(), pages: indices.length };
};

/** The pages as pictures only (200 dpi, like a office scanner), to score the OCR path against the text layer. */
const asScan = async (pdfFile: string, dir: string): Promise<Uint8Array> => {
  const prefix = path.join(dir, `scan-${path.basename(pdfFile, ".pdf")}`);
  spawnSync("pdftoppm", ["-r", "200", "-gray", "-png", pdfFile, prefix]);
  const { PDFDocument } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(path.basename(prefix)) && f.endsWith(".png"))
    .sort();
  for (const f of files) {
    const image = await doc.embedPng(readFileSync(path.join(dir, f)));
    const page = doc.addPage([(image.width * 72) / 200, (image.height * 72) / 200]);
    page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return doc.save();
};

const referenceOf = async (doc: QualityDoc, dir: string, file: string, bytes: Uint8Array, pages: number) => {
  const ref: Reference = {};
  const tags = await structTreeReference(bytes, pages).catch(() => null);
  if (tags) Object.assign(ref, tags);
  const text = pdftotextReference(file, pages);
  if (text) ref.text = text;
  if (doc.comparison) ref.orderText = readFileSync(path.join(dir, doc.comparison.file), "utf8");
  if (doc.unstructured) {
    const peer = unstructuredReference(path.join(dir, doc.unstructured.file), pages);
    ref.orderText = peer.text;
    if (!ref.headings?.length && peer.headings?.length) ref.headings = peer.headings;
    if (!ref.listItems?.length && peer.listItems?.length) ref.listItems = peer.listItems;
    if (!ref.codeBlocks?.length && peer.codeBlocks?.length) ref.codeBlocks = peer.codeBlocks;
    if (!ref.furniture?.length && peer.furniture?.length) ref.furniture = peer.furniture;
  }
  if (doc.icdar) {
    const tables = icdarTables(path.join(dir, doc.icdar.file), pages);
    ref.tableCells = tables.cells;
    ref.tableRelations = tables.relations;
  }
  if (doc.camelot) {
    const tables = camelotTables(path.join(dir, doc.camelot.file), doc.camelot.tables);
    ref.tableCells = tables.cells;
    ref.tableRelations = tables.relations;
  }
  if (doc.tabulaJson) {
    const tables = tabulaTables(path.join(dir, doc.tabulaJson.file), pages);
    ref.tableCells = tables.cells;
    ref.tableRelations = tables.relations;
  }
  if (doc.csvTables) {
    const tables = csvTables(path.join(dir, doc.csvTables.file), doc.csvTables.tables);
    ref.tableCells = tables.cells;
    ref.tableRelations = tables.relations;
  }
  if (doc.code && !ref.codeBlocks?.length) {
    const listings = await monospaceListings(bytes, pages).catch(() => []);
    if (listings.length) ref.codeBlocks = listings;
  }
  if (!ref.orderText && !tags) ref.orderText = text ?? undefined;
  return ref;
};

type Row = {
  doc: string;
  method: string;
  scores: Scores | null;
  seconds: number;
  heldOut?: boolean;
  error?: string;
};

const cell = (n: number | null | undefined) => (n === null || n === undefined ? "–" : fmt(n, 2));

export const benchQuality = async (): Promise<string> => {
  const dir = qualityDir();
  if (!dir) return "quality: no quality folder (QUARRY_QUALITY_DIR or ../shared/quality), skipped";
  const maxPages = Number(process.env.BENCH_QUALITY_PAGES ?? 3);
  const methods = (process.env.BENCH_QUALITY_METHODS ?? "fast,balanced,accurate,auto").split(",");
  const onlyDocs = process.env.BENCH_QUALITY_DOCS?.split(",");
  const work = mkdtempSync(path.join(tmpdir(), "quarry-quality-"));
  const rows: Row[] = [];
  const skipped: string[] = [];
  try {
    for (const doc of QUALITY_DOCS) {
      if (onlyDocs && !onlyDocs.some((d) => doc.file.includes(d))) continue;
      const file = path.join(dir, doc.file);
      if (!existsSync(file)) {
        skipped.push(`${doc.file} (missing)`);
        continue;
      }
      const original = new Uint8Array(readFileSync(file));
      if (sha256(original) !== doc.sha256) {
        skipped.push(`${doc.file} (sha256 differs)`);
        continue;
      }
      const cut = await firstPages(original, maxPages, doc.pages);
      const cutFile = path.join(work, path.basename(doc.file));
      writeFileSync(cutFile, cut.bytes);
      // Chosen pages are a new file: its text layer is the reference (the original's tags are not kept).
      const ref = doc.pages
        ? await referenceOf(doc, dir, cutFile, cut.bytes, cut.pages)
        : await referenceOf(doc, dir, file, original, cut.pages);
      const inputs: { name: string; bytes: Uint8Array; ref: Reference }[] = [
        { name: path.basename(doc.file), bytes: cut.bytes, ref },
      ];
      if (doc.scan) {
        // A scan has no tags: headings and lists are not scored, words, numbers, cells and order are.
        inputs.push({
          name: `${path.basename(doc.file)} (scan)`,
          bytes: await asScan(cutFile, work),
          ref: {
            text: ref.text,
            orderText: ref.orderText,
            tableCells: ref.tableCells,
            tableRelations: ref.tableRelations,
          },
        });
      }
      for (const input of inputs) {
        for (const name of methods) {
          const method = METHODS[name];
          if (!method) continue;
          try {
            const [result, ms] = await time(() =>
              // auto reads scans with the vision model when one is configured (VISION_MODEL), as a build would.
              partitionDocument(
                { bytes: input.bytes, fileName: input.name, fileType: "pdf", method },
                { providers: { vision: getVisionModel() } },
              ),
            );
            rows.push({
              doc: input.name,
              method: name,
              scores: scoreExtraction(extractionOf(result.elements), input.ref),
              seconds: ms / 1000,
              heldOut: doc.heldOut,
            });
          } catch (error) {
            rows.push({
              doc: input.name,
              method: name,
              scores: null,
              seconds: 0,
              error: error instanceof Error ? error.message.slice(0, 120) : String(error),
            });
          }
        }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const keys = ["words", "digits", "headings", "lists", "cells", "structure", "order", "code", "footers"] as const;
  const isScan = (r: Row) => r.doc.endsWith("(scan)");
  const mean = (subset: Row[], method: string, key: (typeof keys)[number]) => {
    const values = subset
      .filter((r) => r.method === method && r.scores)
      .map((r) => r.scores?.[key])
      .filter((v): v is number => typeof v === "number");
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  };
  // Born-digital documents and their scans apart: fast cannot read a scan, and a scan's OCR is no text layer.
  const means = (title: string, subset: Row[]) =>
    subset.length === 0
      ? []
      : [
          "",
          title,
          table([
            ["method", ...keys, "failed", "seconds"],
            ...methods.map((m) => [
              m,
              ...keys.map((k) => cell(mean(subset, m, k))),
              String(subset.filter((r) => r.method === m && r.error).length),
              fmt(
                subset.filter((r) => r.method === m).reduce((a, r) => a + r.seconds, 0),
                1,
              ),
            ]),
          ]),
        ];
  return [
    `Quality: ${new Set(rows.map((r) => r.doc)).size} documents (first ${maxPages} pages each, or the pages a document names), methods ${methods.join(", ")}; documents held out from tuning are not listed one by one, only in their means`,
    table([
      ["document", "method", ...keys, "seconds"],
      ...rows
        .filter((r) => !r.heldOut)
        .map((r) => [
          r.doc,
          r.method,
          ...(r.scores ? keys.map((k) => cell(r.scores?.[k])) : ["failed", ...keys.slice(1).map(() => "")]),
          fmt(r.seconds, 2),
        ]),
    ]),
    ...means(
      "Means per method, born-digital documents tuned on (over the documents that have the reference):",
      rows.filter((r) => !isScan(r) && !r.heldOut),
    ),
    ...means("Means per method, the same pages as scans:", rows.filter(isScan)),
    ...means(
      "Means per method, born-digital documents never tuned on (held out):",
      rows.filter((r) => !isScan(r) && r.heldOut),
    ),
    ...rows.filter((r) => r.error).map((r) => `Failed: ${r.doc} with ${r.method}: ${r.error}`),
    ...(skipped.length ? [`Skipped: ${skipped.join(", ")}`] : []),
    "(F1 of word and digit tokens against pdftotext's text layer; headings, list items and table cells against the" +
      " PDF's tags, ICDAR 2013 or the peer's output; order = 2·LCS/(|a|+|b|) of the word sequences;" +
      " code = share of the reference's Code listings inside our CodeSnippets; footers = share of our Header/Footer/" +
      "PageNumber elements that are the reference's artifacts or peer furniture)",
  ].join("\n");
};
