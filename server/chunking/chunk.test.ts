import { beforeAll, describe, expect, it } from "vitest";
import type { ElementType, ParsedElement } from "../parsing/types";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kBase from "js-tiktoken/ranks/cl100k_base";
import { createLocalEmbedder } from "../providers/embedding/local-embedder";
import { partitionDocument } from "../parsing/partition";
import { chunkElements } from "./chunk";
import { tokenLength } from "./text-splitter";
import { SPLITTERS, type Chunk } from "./types";

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus");

const el = (
  text: string,
  type: ElementType = "NarrativeText",
  pageNumber: number | null = null,
  html?: string,
): ParsedElement => ({
  type,
  text,
  pageNumber,
  html: html ?? null,
});

const sentence = (i: number) => `Sentence number ${i} talks about document retrieval and chunking.`;
const paragraph = (i: number, sentences = 3) =>
  Array.from({ length: sentences }, (_, j) => sentence(i * 10 + j)).join(" ");

/** The longest suffix of `a` that is also a prefix of `b`. */
const overlapOf = (a: string, b: string): string => {
  for (let n = Math.min(a.length, b.length); n > 0; n--) if (a.endsWith(b.slice(0, n))) return b.slice(0, n);
  return "";
};

const expectOrdered = (chunks: Chunk[]) => {
  let last = -1;
  for (const c of chunks) {
    expect([...c.elementIndexes].sort((x, y) => x - y)).toEqual(c.elementIndexes);
    expect(c.elementIndexes[c.elementIndexes.length - 1] ?? -1).toBeGreaterThanOrEqual(last);
    last = c.elementIndexes[c.elementIndexes.length - 1] ?? last;
  }
};

describe("character splitter", () => {
  const elements = Array.from({ length: 12 }, (_, i) => el(paragraph(i)));
  let chunks: Chunk[] = [];
  beforeAll(async () => {
    chunks = await chunkElements({ elements, options: { splitter: "character", chunkSize: 500, chunkOverlap: 100 } });
  });

  it("respects the size, covers every element and keeps order", async () => {
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(500);
    expect(new Set(chunks.flatMap((c) => c.elementIndexes))).toEqual(new Set(elements.map((_, i) => i)));
    expectOrdered(chunks);
    expect(chunks[0]?.metadata.splitter).toBe("character");
  });

  it("starts each chunk with at most chunkOverlap characters of the previous one, at a word boundary", async () => {
    for (let i = 1; i < chunks.length; i++) {
      const shared = overlapOf(chunks[i - 1]?.text ?? "", chunks[i]?.text ?? "");
      expect(shared.length).toBeGreaterThan(0);
      expect(shared.length).toBeLessThanOrEqual(100);
      expect(shared).toMatch(/^\S/);
      expect(chunks[i - 1]?.text.at(-shared.length - 1)).toMatch(/\s/);
    }
  });

  it("splits a long element at sentence and word boundaries, never inside a word", async () => {
    const long = Array.from({ length: 40 }, (_, i) => sentence(i)).join(" ");
    const words = new Set(long.split(/\s+/));
    const pieces = await chunkElements({
      elements: [el(long)],
      options: { splitter: "character", chunkSize: 300, chunkOverlap: 50 },
    });
    expect(pieces.length).toBeGreaterThan(5);
    for (const p of pieces) {
      expect(p.text.length).toBeLessThanOrEqual(300);
      for (const w of p.text.split(/\s+/)) expect(words.has(w)).toBe(true);
      expect(p.elementIndexes).toEqual([0]);
      expect(p.metadata.split_element).toBe(true);
    }
    for (let i = 1; i < pieces.length; i++)
      expect(overlapOf(pieces[i - 1]?.text ?? "", pieces[i]?.text ?? "").length).toBeLessThanOrEqual(50);
  });

  it("cuts a word only when it alone is longer than the size", async () => {
    const pieces = await chunkElements({
      elements: [el(`short ${"x".repeat(250)} words`)],
      options: { splitter: "character", chunkSize: 100, chunkOverlap: 0 },
    });
    for (const p of pieces) expect(p.text.length).toBeLessThanOrEqual(100);
    expect(pieces.map((p) => p.text).join("")).toContain("x".repeat(100));
  });

  it("keeps a table whole when it fits, with its HTML", async () => {
    const table = el(
      "h1 h2\n" + Array.from({ length: 20 }, (_, i) => `row${i} ${i}`).join("\n"),
      "Table",
      null,
      "<table></table>",
    );
    const parts = await chunkElements({
      elements: [el(paragraph(1)), table, el(paragraph(2))],
      options: { splitter: "character", chunkSize: 300, chunkOverlap: 0 },
    });
    const tableChunk = parts.find((c) => c.elementIndexes.includes(1));
    expect(tableChunk?.text).toBe(table.text);
    expect(tableChunk?.metadata.text_as_html).toBe("<table></table>");
  });

  it("does not mix pages, and keeps a heading at a page foot with the next page", async () => {
    const parts = await chunkElements({
      elements: [
        el("Page one text.", "NarrativeText", 1),
        el("Next Section", "Title", 1),
        el("Page two text.", "NarrativeText", 2),
        el("More.", "NarrativeText", 2),
      ],
      options: { splitter: "character", chunkSize: 1000, chunkOverlap: 0 },
    });
    expect(parts.map((c) => [c.pageNumber, c.elementIndexes])).toEqual([
      [1, [0]],
      [1, [1, 2, 3]],
    ]);
  });

  it("removes unwanted element types but keeps indexes into the input", async () => {
    const parts = await chunkElements({
      elements: [el("Running head", "Header"), el("Body text here."), el("7", "PageNumber")],
      options: { splitter: "character", elementsToRemove: ["Header", "PageNumber"] },
    });
    expect(parts).toEqual([expect.objectContaining({ text: "Body text here.", elementIndexes: [1] })]);
  });

  it("uses the contract defaults and the separator between elements", async () => {
    const parts = await chunkElements({
      elements: [el("a"), el("b")],
      options: { splitter: "character", chunkSeparator: " | " },
    });
    expect(parts.map((c) => c.text)).toEqual(["a | b"]);
    const defaults = await chunkElements({
      elements: Array.from({ length: 30 }, (_, i) => el(paragraph(i))),
      options: { splitter: "character" },
    });
    for (const c of defaults) expect(c.text.length).toBeLessThanOrEqual(1000);
  });
});

describe("other splitters", () => {
  it("element: one chunk per element, long ones split", async () => {
    const parts = await chunkElements({
      elements: [el("Short one."), el(Array.from({ length: 20 }, (_, i) => sentence(i)).join(" ")), el("Last.")],
      options: { splitter: "element", chunkSize: 200, chunkOverlap: 20 },
    });
    expect(parts[0]).toMatchObject({ text: "Short one.", elementIndexes: [0] });
    expect(parts.at(-1)).toMatchObject({ text: "Last.", elementIndexes: [2] });
    expect(parts.filter((p) => p.elementIndexes[0] === 1).length).toBeGreaterThan(3);
    for (const p of parts) expect(p.text.length).toBeLessThanOrEqual(200);
  });

  it("title: every section starts a chunk and names its section", async () => {
    const elements = [
      el("Intro text before any heading."),
      el("Installation", "Title"),
      el(paragraph(1)),
      el(paragraph(2)),
      el("Usage", "Title"),
      el("Short usage note."),
    ];
    const parts = await chunkElements({ elements, options: { splitter: "title", chunkSize: 250, chunkOverlap: 30 } });
    expect(parts[0]?.elementIndexes).toEqual([0]);
    const usage = parts.filter((p) => p.elementIndexes.includes(4));
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({
      text: "Usage\n\nShort usage note.",
      elementIndexes: [4, 5],
      metadata: { section_title: "Usage" },
    });
    for (const p of parts.filter((q) => q.elementIndexes.some((i) => i >= 1 && i <= 3))) {
      expect(p.metadata.section_title).toBe("Installation");
      expect(p.elementIndexes.every((i) => i >= 1 && i <= 3)).toBe(true);
      expect(p.text.length).toBeLessThanOrEqual(250);
    }
    expectOrdered(parts);
  });
});

describe("token splitter", () => {
  // An encoder of its own, so the assertion does not rest on the code under test.
  const reference = new Tiktoken(cl100kBase);
  const tokens = (text: string) => reference.encode(text).length;

  it("counts cl100k_base tokens, as the embedding model does", () => {
    expect(tokenLength("hello world")).toBe(2);
    expect(tokenLength("Quarry's tokenizer: état, 日本語, 12345!")).toBe(
      tokens("Quarry's tokenizer: état, 日本語, 12345!"),
    );
    expect(tokenLength("")).toBe(0);
  });

  it("keeps every chunk within chunkSize tokens and the overlap within chunkOverlap tokens", async () => {
    const elements = Array.from({ length: 10 }, (_, i) => el(paragraph(i)));
    const parts = await chunkElements({ elements, options: { splitter: "token", chunkSize: 60, chunkOverlap: 10 } });
    expect(parts.length).toBeGreaterThan(5);
    for (const p of parts) expect(tokens(p.text)).toBeLessThanOrEqual(60);
    // A chunk of 60 tokens is far longer than 60 characters: sizes are not characters.
    expect(Math.max(...parts.map((p) => p.text.length))).toBeGreaterThan(150);
    for (let i = 1; i < parts.length; i++) {
      const shared = overlapOf(parts[i - 1]?.text ?? "", parts[i]?.text ?? "");
      expect(tokens(shared)).toBeLessThanOrEqual(10);
    }
  });

  it("encodes a run of more than 64 characters without spaces slice by slice, near the exact count", () => {
    // BPE is quadratic in a run's length (9,200 such characters took over a minute whole): slices bound the cost, at
    // the price of a token or two per slice (a word cut at a slice's end).
    const sliced = (run: string) => {
      const slices = Array.from({ length: Math.ceil(run.length / 64) }, (_, k) => run.slice(k * 64, k * 64 + 64));
      return { slices: slices.length, tokens: slices.reduce((n, slice) => n + tokens(slice), 0) };
    };
    const words = "internationalization".repeat(10);
    expect(tokens(words)).toBe(20);
    expect(sliced(words)).toEqual({ slices: 4, tokens: 27 });
    expect(tokenLength(words)).toBe(27);
    const japanese = "日本語のテキストを分割します".repeat(20);
    expect(tokenLength(japanese)).toBe(sliced(japanese).tokens);
    expect(Math.abs(tokenLength(japanese) - tokens(japanese))).toBeLessThanOrEqual(2 * sliced(japanese).slices);
  });

  it("counts 9,200 characters of long runs without spaces (its speed: BENCH_ONLY=pathological)", () => {
    const japanese = "日本語のテキストを分割します".repeat(300);
    const counted = tokenLength(japanese + " " + "=".repeat(5000));
    expect(counted).toBeGreaterThan(tokens("日本語のテキストを分割します") * 250);
  }, 120_000);

  it("cuts a long unbroken string by tokens without breaking characters", async () => {
    const blob = "日本語のテキスト".repeat(40) + "x".repeat(300);
    const parts = await chunkElements({
      elements: [el(blob)],
      options: { splitter: "token", chunkSize: 25, chunkOverlap: 0 },
    });
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) {
      expect(tokens(p.text)).toBeLessThanOrEqual(25);
      expect(p.text).not.toContain("\uFFFD");
    }
    expect(parts.map((p) => p.text).join("")).toBe(blob);
  });
});

const GRANITE = [
  "Granite is quarried from massive igneous intrusions that cooled slowly deep underground.",
  "Quarry workers first map the joints and fractures of the granite face before drilling.",
  "Diamond wire saws then cut the granite into large blocks that cranes lift onto trucks.",
  "Polished granite slabs are used for kitchen counters, monuments and building facades.",
  "Granite blocks with hidden fractures are rejected because they crack during cutting.",
];
const COFFEE = [
  "Espresso coffee is brewed by forcing hot water through finely ground coffee beans.",
  "Baristas adjust the grind size until a double shot of espresso pours in about thirty seconds.",
  "Fresh coffee beans release carbon dioxide, which forms the crema on top of the espresso.",
  "Milk for a cappuccino is steamed until it forms a smooth and glossy microfoam.",
  "Stale coffee beans taste flat because their aromatic oils have oxidised in the bag.",
];

describe("semantic splitter", () => {
  const embedder = createLocalEmbedder();

  it("breaks where the topic changes, not inside a topic", async () => {
    const parts = await chunkElements({
      elements: [el(GRANITE.join(" ")), el(COFFEE.join(" "))],
      options: { splitter: "semantic", chunkSize: 2000, chunkOverlap: 100 },
      embedder,
    });
    expect(parts.map((p) => p.text)).toEqual([GRANITE.join(" "), COFFEE.join(" ")]);
    expect(parts.map((p) => p.elementIndexes)).toEqual([[0], [1]]);
    expect(parts[0]?.metadata.splitter).toBe("semantic");
  });

  it("finds a topic change inside one element", async () => {
    const parts = await chunkElements({
      elements: [el([...GRANITE, ...COFFEE].join(" "))],
      options: { splitter: "semantic", chunkSize: 2000, chunkOverlap: 0 },
      embedder,
    });
    expect(parts.map((p) => p.text)).toEqual([GRANITE.join(" "), COFFEE.join(" ")]);
    expect(parts.every((p) => p.metadata.split_element === true)).toBe(true);
  });

  it("respects chunkSize, repeats at most chunkOverlap across forced cuts and none across the topic break", async () => {
    const parts = await chunkElements({
      elements: [el(GRANITE.join(" ")), el(COFFEE.join(" "))],
      options: { splitter: "semantic", chunkSize: 200, chunkOverlap: 40 },
      embedder,
    });
    expect(parts.length).toBeGreaterThanOrEqual(4);
    for (const p of parts) expect(p.text.length).toBeLessThanOrEqual(200);
    // Whole sentences, except for the repeated overlap at the start.
    const firstCoffee = parts.findIndex((p) => p.text.startsWith(COFFEE[0]!));
    expect(firstCoffee).toBeGreaterThan(0);
    expect(parts.slice(0, firstCoffee).every((p) => p.elementIndexes.includes(0))).toBe(true);
    for (let i = 1; i < parts.length; i++) {
      const shared = overlapOf(parts[i - 1]!.text, parts[i]!.text);
      if (i === firstCoffee) expect(shared).toBe("");
      else {
        expect(shared.length).toBeGreaterThan(0);
        expect(shared.length).toBeLessThanOrEqual(40);
      }
    }
  });

  it("splits a sentence longer than the size and keeps pages apart", async () => {
    const long = Array.from({ length: 30 }, (_, i) => `granite block ${i}`).join(", ") + ".";
    const parts = await chunkElements({
      elements: [el(long, "NarrativeText", 1), el(COFFEE[0]!, "NarrativeText", 2)],
      options: { splitter: "semantic", chunkSize: 120, chunkOverlap: 0 },
      embedder,
    });
    for (const p of parts) expect(p.text.length).toBeLessThanOrEqual(120);
    expect(parts.at(-1)).toMatchObject({ text: COFFEE[0], pageNumber: 2, elementIndexes: [1] });
    expect(parts.slice(0, -1).every((p) => p.pageNumber === 1)).toBe(true);
  });

  it("uses the configured embedder when none is given", async () => {
    const parts = await chunkElements({
      elements: [el(GRANITE.join(" ")), el(COFFEE.join(" "))],
      options: { splitter: "semantic", chunkSize: 2000 },
    });
    expect(parts).toHaveLength(2);
  });
});

describe("every splitter", () => {
  const elements = [
    el("Running head", "Header", 1),
    el("Quarry report", "Title", 1),
    el(GRANITE.slice(0, 2).join(" "), "NarrativeText", 1),
    el("Page 1", "PageNumber", 1),
    el(GRANITE.slice(2, 4).join(" "), "NarrativeText", 1),
  ];
  const embedder = createLocalEmbedder();

  for (const splitter of SPLITTERS) {
    it(`${splitter}: removes elementsToRemove, joins elements with chunkSeparator, keeps the size`, async () => {
      const measure = splitter === "token" ? tokenLength : (t: string) => t.length;
      const parts = await chunkElements({
        elements,
        options: {
          splitter,
          chunkSize: 400,
          chunkOverlap: 0,
          chunkSeparator: " | ",
          elementsToRemove: ["Header", "PageNumber"],
        },
        embedder,
      });
      const all = parts.map((p) => p.text).join(" ");
      expect(all).not.toMatch(/Running head|Page 1/);
      expect(all).toContain("Quarry report");
      expect(parts.flatMap((p) => p.elementIndexes).every((i) => i !== 0 && i !== 3)).toBe(true);
      for (const p of parts) expect(measure(p.text)).toBeLessThanOrEqual(400);
      if (splitter === "element") expect(parts).toHaveLength(3);
      else expect(all).toContain(" | ");
    });
  }
});

describe.runIf(existsSync(CORPUS))("splitters on a real paper", () => {
  it("semantic chunks of the DPR paper stay within the size, with no stray scraps", async () => {
    const file = "dpr-paper-multi-column-13p.pdf";
    const { elements } = await partitionDocument({
      bytes: readFileSync(path.join(CORPUS, file)),
      fileName: file,
      fileType: "pdf",
      method: "basic",
    });
    const options = { chunkSize: 1000, chunkOverlap: 100 } as const;
    const started = performance.now();
    const semantic = await chunkElements({
      elements,
      options: { splitter: "semantic", ...options },
      embedder: createLocalEmbedder(),
    });
    const ms = performance.now() - started;
    const lengths = semantic.map((c) => c.text.length);
    console.log(
      `semantic: ${semantic.length} chunks, ${Math.min(...lengths)}–${Math.max(...lengths)} chars, ${ms.toFixed(0)} ms`,
    );
    expect(Math.max(...lengths)).toBeLessThanOrEqual(1000);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(50);
    expect(new Set(semantic.map((c) => c.pageNumber))).toEqual(new Set(elements.map((e) => e.pageNumber)));
    const title = await chunkElements({ elements, options: { splitter: "title", ...options } });
    expect(semantic.map((c) => c.text)).not.toEqual(title.map((c) => c.text));
  });
});
