import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { recognize, shutdownOcr } from "@/server/parsing/ocr/engine";
import { readChosen, repairDigits, type EngineName } from "@/server/parsing/ocr/engine-choice";
import { recognizePp } from "@/server/parsing/ocr/ppocr";
import type { OcrPage } from "@/server/parsing/ocr/types";
import { fmt, table } from "../stats";
import { qualityDir } from "./run";

/**
 * `BENCH_ONLY=scans`: digit-token F1 of OCR on clean 300-dpi scans. PDF pages with a text layer (a generated page
 * of dates, ISBNs, DOIs and number tables; the corpus's papers; the quality folder's PDFs, first page each, at most
 * BENCH_SCAN_PAGES pages in all, default 6) are rendered to grey 300-dpi images, read by Tesseract, by PP-OCR and
 * by the engine choice, and their digit tokens scored against the page's text layer (pdftotext). Also CPU seconds
 * per page of each engine (process CPU, the Tesseract worker thread included), so pages/s can be compared.
 *
 * Token normalisation, the same on both sides: NFKC (superscript digits become digits), every dash and minus a
 * hyphen, no soft hyphens, surrounding brackets, quotes and sentence punctuation stripped; a token counts when it
 * has a digit. Tokens are matched as a multiset per page.
 */

const DPI = 300;

const normalise = (token: string) =>
  token
    .normalize("NFKC")
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u00ad/g, "")
    .replace(/^[([{"'“‘«]+/, "")
    .replace(/[)\]}"'”’»,.;:!?]+$/, "");

/** Every token with a letter or digit (word F1: a line whose spaces are lost scores its run-together words as misses). */
export const wordTokens = (text: string): string[] =>
  text
    .split(/\s+/)
    .map(normalise)
    .filter((t) => /[\p{L}\p{N}]/u.test(t));

export const digitTokens = (text: string): string[] =>
  text
    .split(/\s+/)
    .map(normalise)
    .filter((t) => /\d/.test(t));

/** Multiset match counts of `found` against `expected`. */
export const matchCounts = (expected: readonly string[], found: readonly string[]) => {
  const left = new Map<string, number>();
  for (const t of expected) left.set(t, (left.get(t) ?? 0) + 1);
  let hit = 0;
  const extra: string[] = [];
  for (const t of found) {
    const n = left.get(t) ?? 0;
    if (n > 0) {
      hit++;
      left.set(t, n - 1);
    } else extra.push(t);
  }
  const missed = [...left.entries()].flatMap(([t, n]) => Array<string>(n).fill(t));
  return { hit, expected: expected.length, found: found.length, missed, extra };
};

const f1 = (hit: number, expected: number, found: number) =>
  expected + found === 0 ? 1 : (2 * hit) / (expected + found);

/** A page of known numbers: dates, ISBNs, DOIs, money, a table of figures, ranges. */
const generatedPdf = async (): Promise<Uint8Array> => {
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const lines = [
    "Catalogue of references, updated 2024-03-15 and again on 07/11/2025 at 14:30.",
    "ISBN 978-3-16-148410-0 and ISBN 0-306-40615-2 were ordered on 12.05.2023.",
    "DOI 10.1038/nature12373, doi:10.1145/3397271.3401075 and 10.48550/arXiv.2004.04906",
    "Revenue rose 12.5% to $1,204,330.75 while costs fell from 98,100 to 87,650.",
    "Pages 233-245 of volume 17, issue 4; see also pp. 1021-1033 (2019).",
    "Call +1 555 0134 or 020 7946 0958; invoice no. 100234-B7 is due 2026-01-31.",
    "",
    "Year    Units    Price    Total",
    "2019    1,250    19.99    24,987.50",
    "2020    3,075    18.49    56,856.75",
    "2021    4,410    17.25    76,072.50",
    "2022    6,908    16.80    116,054.40",
    "2023    8,118    15.95    129,482.10",
  ];
  lines.forEach((line, i) => page.drawText(line, { x: 54, y: 720 - i * 22, size: 11, font }));
  return doc.save();
};

type Sample = { name: string; png: Buffer; width: number; height: number; reference: string };

const render = (pdf: string, pageNumber: number, dir: string): Sample | null => {
  const prefix = path.join(dir, `p${Math.random().toString(36).slice(2)}`);
  spawnSync("pdftoppm", [
    "-r",
    String(DPI),
    "-gray",
    "-png",
    "-f",
    String(pageNumber),
    "-l",
    String(pageNumber),
    pdf,
    prefix,
  ]);
  const file = readdirSync(dir).find((f) => f.startsWith(path.basename(prefix)) && f.endsWith(".png"));
  if (!file) return null;
  const text = spawnSync("pdftotext", ["-f", String(pageNumber), "-l", String(pageNumber), "-enc", "UTF-8", pdf, "-"], {
    encoding: "utf8",
  }).stdout;
  if (digitTokens(text).length < 5) return null;
  const png = readFileSync(path.join(dir, file));
  rmSync(path.join(dir, file));
  return { name: `${path.basename(pdf)} p${pageNumber}`, png, width: 0, height: 0, reference: text };
};

const corpusPdfs = (): string[] => {
  const found: string[] = [];
  const corpus = path.resolve(import.meta.dirname, "../../../shared/corpus");
  for (const f of ["dpr-paper-multi-column-13p.pdf", "layout-parser-paper-with-table.pdf"]) {
    if (existsSync(path.join(corpus, f))) found.push(path.join(corpus, f));
  }
  const quality = qualityDir();
  if (quality) {
    for (const sub of readdirSync(quality, { withFileTypes: true })) {
      if (!sub.isDirectory()) continue;
      for (const f of readdirSync(path.join(quality, sub.name)).sort()) {
        if (f.endsWith(".pdf")) found.push(path.join(quality, sub.name, f));
      }
    }
  }
  return found;
};

type Tally = {
  words: { hit: number; expected: number; found: number };
  hit: number;
  expected: number;
  found: number;
  cpu: number;
  pages: number;
  missed: string[];
  extra: string[];
};

/** `BENCH_SCAN_DUMP=<dir>`: every page's reference and readings written there, to look at the errors. */
const dump = (s: Sample, texts: Record<string, string>) => {
  const dir = process.env.BENCH_SCAN_DUMP;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const base = s.name.replace(/[^\w.-]+/g, "_");
  for (const [kind, text] of Object.entries(texts)) writeFileSync(path.join(dir, `${base}.${kind}.txt`), text);
};

const cpuSeconds = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const start = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(start);
  return [value, (used.user + used.system) / 1e6];
};

export const benchScans = async (): Promise<string> => {
  const maxPages = Number(process.env.BENCH_SCAN_PAGES ?? 6);
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-scans-"));
  const tallies = new Map<string, Tally>();
  const add = (name: string, reference: string, page: OcrPage, cpu: number) => {
    const t = tallies.get(name) ?? {
      words: { hit: 0, expected: 0, found: 0 },
      hit: 0,
      expected: 0,
      found: 0,
      cpu: 0,
      pages: 0,
      missed: [],
      extra: [],
    };
    const m = matchCounts(digitTokens(reference), digitTokens(page.text));
    const w = matchCounts(wordTokens(reference), wordTokens(page.text));
    t.words.hit += w.hit;
    t.words.expected += w.expected;
    t.words.found += w.found;
    t.hit += m.hit;
    t.expected += m.expected;
    t.found += m.found;
    t.cpu += cpu;
    t.pages++;
    t.missed.push(...m.missed);
    t.extra.push(...m.extra);
    tallies.set(name, t);
  };
  const perPage: (string | number)[][] = [["page", "digit tokens", "tesseract", "ppocr", "choice", "chosen"]];
  try {
    const generated = path.join(dir, "generated-numbers.pdf");
    writeFileSync(generated, await generatedPdf());
    const samples: Sample[] = [];
    for (const pdf of [generated, ...corpusPdfs()]) {
      if (samples.length >= maxPages) break;
      const s = render(pdf, 1, dir);
      if (s) samples.push(s);
    }
    for (const s of samples) {
      const meta = await sharp(s.png).metadata();
      const size = { width: meta.width ?? 0, height: meta.height ?? 0 };
      const [tess, tessCpu] = await cpuSeconds(() => recognize(s.png, size, { dpi: DPI, timeoutMs: 900_000 }));
      const [pp, ppCpu] = await cpuSeconds(() => recognizePp(s.png, size));
      const raw: Record<EngineName, { page: OcrPage; cpu: number }> = {
        tesseract: { page: structuredClone(tess), cpu: tessCpu },
        ppocr: { page: structuredClone(pp), cpu: ppCpu },
      };
      // The choice reads with the engines it asks for; its CPU is theirs.
      let choiceCpu = 0;
      const reader = (engine: EngineName) => async () => {
        choiceCpu += raw[engine].cpu;
        return structuredClone(raw[engine].page);
      };
      const chosen = await readChosen({ tesseract: reader("tesseract"), ppocr: reader("ppocr") }, "auto");
      dump(s, { reference: s.reference, tesseract: tess.text, ppocr: pp.text, choice: chosen.page.text });
      add("tesseract", s.reference, tess, tessCpu);
      add("tesseract + digits.ts", s.reference, repairDigits(structuredClone(tess)), tessCpu);
      add("ppocr", s.reference, pp, ppCpu);
      add("ppocr + digits.ts", s.reference, repairDigits(structuredClone(pp)), ppCpu);
      add("choice", s.reference, chosen.page, choiceCpu);
      const score = (page: OcrPage) => {
        const m = matchCounts(digitTokens(s.reference), digitTokens(page.text));
        return fmt(f1(m.hit, m.expected, m.found), 3);
      };
      perPage.push([
        s.name,
        digitTokens(s.reference).length,
        score(tess),
        score(pp),
        score(chosen.page),
        chosen.engine,
      ]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await shutdownOcr();
  }
  const rows: (string | number)[][] = [
    ["engine", "pages", "word F1", "digit F1", "precision", "recall", "CPU s/page", "pages/CPU s"],
  ];
  for (const [name, t] of tallies) {
    rows.push([
      name,
      t.pages,
      fmt(f1(t.words.hit, t.words.expected, t.words.found), 3),
      fmt(f1(t.hit, t.expected, t.found), 3),
      fmt(t.found ? t.hit / t.found : 1, 3),
      fmt(t.expected ? t.hit / t.expected : 1, 3),
      fmt(t.cpu / Math.max(1, t.pages), 2),
      fmt(t.pages / Math.max(1e-9, t.cpu), 3),
    ]);
  }
  const residue = (name: string) => {
    const t = tallies.get(name);
    return t ? `${name}: missed ${t.missed.slice(0, 25).join(" ")} | extra ${t.extra.slice(0, 25).join(" ")}` : "";
  };
  return [
    `Scans (${DPI} dpi, word and digit tokens against the text layer)`,
    table(rows),
    table(perPage),
    residue("choice"),
    residue("tesseract"),
    residue("ppocr + digits.ts"),
  ].join("\n");
};
