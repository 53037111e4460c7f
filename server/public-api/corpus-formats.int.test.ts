import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseWebVtt } from "../parsing/media/subtitles";
import { peerText, textSimilarity } from "../parsing/text-similarity";
import { startFakeVisionServer, visionAnswer, type FakeVisionServer } from "../parsing/vision/test-fixtures";
import { startFakeTranscriptionServer, type FakeTranscriptionServer } from "../testing/fake-transcription-server";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * Every document of the shared corpus through the public API, with each partition method that applies to its
 * format. Remote models cannot exist here, so a local vision server (which reads the page it is sent with the
 * tesseract CLI) and a local transcription server (which serves the recording's real subtitle cues) stand in;
 * Quarry's own clients talk to them over HTTP. Runs whenever ../shared is there.
 */

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus");

type Element = {
  element_type: string;
  text: string;
  html: string | null;
  page_number: number | null;
  bounding_box: { left: number; top: number; width: number; height: number } | null;
  page_layout: { width: number; height: number } | null;
  img_base64: string | null;
  page_keywords: string[] | null;
  metadata: Record<string, unknown>;
};

type Case = {
  file: string;
  method: "fast" | "balanced" | "accurate" | "agentic" | "auto";
  /** Text every run must contain (case-insensitive). */
  contains?: RegExp[];
  types?: string[];
  pages?: number;
  /** Lower bound of the word-level F1 against the peer's `.expected.json`, when there is one. */
  peerSimilarity?: number;
  check?: (elements: Element[], status: Record<string, unknown>) => void;
  /** The build must fail, with an error matching this. */
  fails?: RegExp;
};

const PDF_METHODS = ["fast", "balanced", "accurate", "agentic", "auto"] as const;
const IMAGE_METHODS = ["fast", "balanced", "accurate", "agentic"] as const;

const CASES: Case[] = [
  ...PDF_METHODS.map<Case>((method) => ({
    file: "layout-parser-paper-with-table.pdf",
    method,
    pages: 1,
    contains: [/Layout Detection Models/i, /PubLayNet/],
    // balanced is OCR and structure without table recovery; the stand-in vision model reads text only.
    types: method === "balanced" || method === "agentic" ? ["NarrativeText"] : ["Table"],
  })),
  ...PDF_METHODS.filter((m) => m !== "fast").map<Case>((method) => ({
    file: "loremipsum-flat-image-only.pdf",
    method,
    pages: 1,
    contains: [/lorem ipsum/i],
    types: ["NarrativeText"],
  })),
  {
    file: "loremipsum-flat-image-only.pdf",
    method: "fast",
    // fast does not OCR: a scan fails with the reason instead of completing without text.
    fails: /^No text could be read from this \.pdf file: Page 1 has no text layer/,
  },
  ...(["fast", "auto"] as const).map<Case>((method) => ({
    file: "dpr-paper-multi-column-13p.pdf",
    method,
    pages: 13,
    contains: [/Dense Passage Retrieval/, /Abstract/],
    types: ["Title", "NarrativeText", "Table"],
  })),
  ...IMAGE_METHODS.flatMap((method) => [
    { file: "layout-parser-paper-with-table.jpg", method, pages: 1, contains: [/LayoutParser/i], peerSimilarity: 0.6 },
    { file: "layout-parser-paper-fast.tiff", method, pages: 1, contains: [/LayoutParser/i] },
    { file: "pytesseract-test.bmp", method, pages: 1, contains: [/quick brown (dog|fox)/i] },
    { file: "english-and-korean.png", method, pages: 1, contains: [/[a-z]{4,}/i] },
    {
      file: "table-multi-row-column-cells.png",
      method,
      pages: 1,
      contains: [/Blind/, /Low Vision/i],
      ...(method === "accurate" ? { types: ["Table"] } : {}),
    },
    { file: "DA-1p.heic", method, pages: 1, contains: [/[a-z]{4,}/i] },
  ]),
  {
    file: "handbook-1p.docx",
    method: "fast",
    contains: [/PURPOSE/],
    types: ["Title", "NarrativeText"],
    peerSimilarity: 0.85,
  },
  { file: "handbook-1p.docx", method: "accurate", contains: [/PURPOSE/i] },
  { file: "handbook-1p.docx", method: "agentic", contains: [/PURPOSE/i] },
  { file: "docx-tables.docx", method: "fast", types: ["Table"] },
  { file: "fake-doc-emphasized-text.docx", method: "fast", types: ["Table"] },
  { file: "fake-doc-emphasized-text.doc", method: "fast", types: ["Table"] },
  { file: "fake.odt", method: "fast", contains: [/Lorem ipsum/], types: ["Table"] },
  { file: "simple.odt", method: "fast", contains: [/favorite things/i], types: ["ListItem"] },
  {
    file: "science-exploration-1p.pptx",
    method: "fast",
    contains: [/Sciences and Exploration/i],
    peerSimilarity: 0.85,
  },
  { file: "science-exploration-1p.pptx", method: "balanced", contains: [/Exploration/i] },
  { file: "fake-power-point-table.pptx", method: "fast", types: ["Table"] },
  { file: "fake-power-point.ppt", method: "fast", contains: [/Adding a Bullet Slide/i], types: ["ListItem"] },
  { file: "stanley-cups.xlsx", method: "fast", types: ["Table"], pages: 2, peerSimilarity: 0.85 },
  { file: "2023-half-year-analyses-by-segment.xlsx", method: "fast", types: ["Table"] },
  { file: "tests-example.xls", method: "fast", types: ["Table"], peerSimilarity: 0.85 },
  { file: "table-multi-row-column-cells-actual.csv", method: "fast", types: ["Table"] },
  { file: "stanley-cups.csv", method: "fast", types: ["Table"] },
  { file: "stanley-cups.tsv", method: "fast", types: ["Table"] },
  { file: "ideas-page.html", method: "fast", contains: [/How to Get New Ideas/i], peerSimilarity: 0.8 },
  { file: "example-10k-1p.html", method: "fast", contains: [/Galaxy Gaming/i] },
  { file: "fake-html-cp1252.html", method: "fast", contains: [/€|ü|é/], peerSimilarity: 0.85 },
  { file: "example-docs-README.md", method: "fast", types: ["Title", "ListItem"] },
  { file: "simple-table.md", method: "fast", types: ["Table"] },
  { file: "codeblock.md", method: "fast", types: ["CodeSnippet"] },
  { file: "book-war-and-peace-1p.txt", method: "fast", contains: [/Anna Pavlovna/], peerSimilarity: 0.9 },
  { file: "UDHR_first_article_all.txt", method: "fast", contains: [/dignity and rights/], peerSimilarity: 0.9 },
  { file: "fake-text.txt", method: "fast", types: ["ListItem"], peerSimilarity: 0.85 },
  ...["apollo11.mp3", "smartphone.mp3", "bonjour.wav", "chaplin.mp4", "big_buck_bunny_432_433.webm"].map<Case>(
    (file) => ({
      file,
      method: "fast",
      types: ["NarrativeText"],
      check: (elements) => {
        for (const e of elements) {
          expect(e.page_number).toBeNull();
          expect(e.metadata).toMatchObject({ transcript_source: "speech", start: expect.any(Number) });
        }
      },
    }),
  ),
];

/** The stand-in vision model reads the page image it is sent with the tesseract CLI: a real reading, not a fixture. */
const readWithTesseract = (png: Buffer) => {
  const dir = mkdtempSync(path.join(tmpdir(), "fake-vision-"));
  try {
    const file = path.join(dir, "page.png");
    writeFileSync(file, png);
    const out = spawnSync("tesseract", [file, "-"], { encoding: "utf8", maxBuffer: 16 << 20 });
    const paragraphs = out.stdout
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s+/g, " ").trim())
      .filter(Boolean);
    return paragraphs.map((text, i) => ({ type: i === 0 && text.length < 80 ? "Title" : "NarrativeText", text }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe.runIf(existsSync(CORPUS))("every corpus document with every method that applies", () => {
  let quarry: QuarryProcess;
  let api: ReturnType<typeof apiClient>;
  let vision: FakeVisionServer;
  let speech: FakeTranscriptionServer;
  const similarities: string[] = [];

  beforeAll(async () => {
    vision = await startFakeVisionServer((request) => ({
      status: 200,
      content: visionAnswer(readWithTesseract(request.png)),
    }));
    const cues = parseWebVtt(readFileSync(path.join(CORPUS, "smartphone.mp3_50.vtt"), "utf8"));
    speech = await startFakeTranscriptionServer({ apiKey: "sk-test-speech", language: "french", transcript: cues });
    quarry = await startQuarry({
      env: {
        VISION_MODEL: "gpt-4o-mini",
        VISION_BASE_URL: vision.baseUrl,
        VISION_API_KEY: "sk-test-vision",
        SPEECH_BASE_URL: speech.baseUrl,
        SPEECH_API_KEY: "sk-test-speech",
        QUARRY_JOB_CONCURRENCY: "2",
      },
    });
    api = apiClient(quarry);
  });
  afterAll(async () => {
    if (similarities.length)
      process.stdout.write(`\nText similarity to the peer's output:\n${similarities.join("\n")}\n`);
    await quarry?.dispose();
    await vision?.close();
    await speech?.close();
  });

  const elementsOf = async (fileId: string) =>
    ((await (await api.get(`/get-elements?file_id=${fileId}`)).json()) as { items: Element[] }).items;

  it("ingests each file and yields sensible elements", { timeout: 1_800_000 }, async () => {
    const failures: string[] = [];
    // Media one at a time: the stand-in transcription server counts offsets per recording.
    const media = CASES.filter((c) => /\.(mp3|wav|mp4|webm)$/.test(c.file));
    const documents = CASES.filter((c) => !media.includes(c));
    const started: { c: Case; buildId: string }[] = [];
    const submit = async (c: Case) => {
      const res = await api.upload(c.file, readFileSync(path.join(CORPUS, c.file)), { method: c.method });
      expect(res.status, `${c.file} ${c.method}: ${await res.clone().text()}`).toBe(200);
      return ((await res.json()) as { build_id: string }).build_id;
    };
    for (const c of documents) started.push({ c, buildId: await submit(c) });
    for (const { buildId } of started) await api.waitForBuild(buildId, 1_500_000);
    const finished: { c: Case; buildId: string }[] = [...started];
    for (const c of media) {
      speech.reset();
      const buildId = await submit(c);
      await api.waitForBuild(buildId, 600_000);
      finished.push({ c, buildId });
    }

    for (const { c, buildId } of finished) {
      const label = `${c.file} (${c.method})`;
      try {
        const build = await api.waitForBuild(buildId, 1_200_000);
        if (c.fails) {
          expect(build, label).toMatchObject({ status: "Processing failed", error: expect.stringMatching(c.fails) });
          continue;
        }
        expect(build, label).toMatchObject({ status: "Completed", error: null });
        const status = (await (await api.get(`/builds/${buildId}?suppress_elements=true`)).json()) as Record<
          string,
          unknown
        >;
        const elements = await elementsOf(status.file_id as string);
        if (c.check) c.check(elements, status);
        else expect(elements.length, label).toBeGreaterThan(0);
        const text = elements.map((e) => e.text).join("\n");
        for (const pattern of c.contains ?? []) expect(text, label).toMatch(pattern);
        const types = new Set(elements.map((e) => e.element_type));
        for (const type of c.types ?? []) expect([...types], label).toContain(type);
        if (c.pages !== undefined) {
          expect(status.total_pages, label).toBe(c.pages);
          for (const e of elements) {
            expect(e.page_number, label).toBeGreaterThanOrEqual(1);
            expect(e.page_number, label).toBeLessThanOrEqual(c.pages);
          }
        }
        for (const e of elements.filter((e) => e.element_type === "Table"))
          expect(e.html ?? "", label).toMatch(/<table/);
        // Enrichment is on by default: every page carries keywords (local extractor, no LLM configured).
        if (elements.length > 0)
          expect(
            elements.some((e) => (e.page_keywords ?? []).length > 0),
            label,
          ).toBe(true);
        const expectedFile = path.join(CORPUS, `${c.file}.expected.json`);
        if (c.peerSimilarity !== undefined && existsSync(expectedFile)) {
          const similarity = textSimilarity(text, peerText(JSON.parse(readFileSync(expectedFile, "utf8"))));
          similarities.push(`  ${label}: ${similarity.toFixed(3)}`);
          expect(similarity, label).toBeGreaterThanOrEqual(c.peerSimilarity);
        }
      } catch (error) {
        failures.push(`${label}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
