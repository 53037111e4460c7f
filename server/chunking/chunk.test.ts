import { describe, expect, it } from "vitest";
import type { ElementType, ParsedElement } from "../parsing/types";
import { chunkElements } from "./chunk";
import { tokenLength } from "./text-splitter";
import type { Chunk } from "./types";

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
  const chunks = chunkElements({ elements, options: { splitter: "character", chunkSize: 500, chunkOverlap: 100 } });

  it("respects the size, covers every element and keeps order", () => {
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(500);
    expect(new Set(chunks.flatMap((c) => c.elementIndexes))).toEqual(new Set(elements.map((_, i) => i)));
    expectOrdered(chunks);
    expect(chunks[0]?.metadata.splitter).toBe("character");
  });

  it("starts each chunk with at most chunkOverlap characters of the previous one, at a word boundary", () => {
    for (let i = 1; i < chunks.length; i++) {
      const shared = overlapOf(chunks[i - 1]?.text ?? "", chunks[i]?.text ?? "");
      expect(shared.length).toBeGreaterThan(0);
      expect(shared.length).toBeLessThanOrEqual(100);
      expect(shared).toMatch(/^\S/);
      expect(chunks[i - 1]?.text.at(-shared.length - 1)).toMatch(/\s/);
    }
  });

  it("splits a long element at sentence and word boundaries, never inside a word", () => {
    const long = Array.from({ length: 40 }, (_, i) => sentence(i)).join(" ");
    const words = new Set(long.split(/\s+/));
    const pieces = chunkElements({
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

  it("cuts a word only when it alone is longer than the size", () => {
    const pieces = chunkElements({
      elements: [el(`short ${"x".repeat(250)} words`)],
      options: { splitter: "character", chunkSize: 100, chunkOverlap: 0 },
    });
    for (const p of pieces) expect(p.text.length).toBeLessThanOrEqual(100);
    expect(pieces.map((p) => p.text).join("")).toContain("x".repeat(100));
  });

  it("keeps a table whole when it fits, with its HTML", () => {
    const table = el(
      "h1 h2\n" + Array.from({ length: 20 }, (_, i) => `row${i} ${i}`).join("\n"),
      "Table",
      null,
      "<table></table>",
    );
    const parts = chunkElements({
      elements: [el(paragraph(1)), table, el(paragraph(2))],
      options: { splitter: "character", chunkSize: 300, chunkOverlap: 0 },
    });
    const tableChunk = parts.find((c) => c.elementIndexes.includes(1));
    expect(tableChunk?.text).toBe(table.text);
    expect(tableChunk?.metadata.text_as_html).toBe("<table></table>");
  });

  it("does not mix pages, and keeps a heading at a page foot with the next page", () => {
    const parts = chunkElements({
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

  it("removes unwanted element types but keeps indexes into the input", () => {
    const parts = chunkElements({
      elements: [el("Running head", "Header"), el("Body text here."), el("7", "PageNumber")],
      options: { splitter: "character", elementsToRemove: ["Header", "PageNumber"] },
    });
    expect(parts).toEqual([expect.objectContaining({ text: "Body text here.", elementIndexes: [1] })]);
  });

  it("uses the contract defaults and the separator between elements", () => {
    const parts = chunkElements({
      elements: [el("a"), el("b")],
      options: { splitter: "character", chunkSeparator: " | " },
    });
    expect(parts.map((c) => c.text)).toEqual(["a | b"]);
    const defaults = chunkElements({
      elements: Array.from({ length: 30 }, (_, i) => el(paragraph(i))),
      options: { splitter: "character" },
    });
    for (const c of defaults) expect(c.text.length).toBeLessThanOrEqual(1000);
  });
});

describe("other splitters", () => {
  it("element: one chunk per element, long ones split", () => {
    const parts = chunkElements({
      elements: [el("Short one."), el(Array.from({ length: 20 }, (_, i) => sentence(i)).join(" ")), el("Last.")],
      options: { splitter: "element", chunkSize: 200, chunkOverlap: 20 },
    });
    expect(parts[0]).toMatchObject({ text: "Short one.", elementIndexes: [0] });
    expect(parts.at(-1)).toMatchObject({ text: "Last.", elementIndexes: [2] });
    expect(parts.filter((p) => p.elementIndexes[0] === 1).length).toBeGreaterThan(3);
    for (const p of parts) expect(p.text.length).toBeLessThanOrEqual(200);
  });

  it("title: every section starts a chunk and names its section", () => {
    const elements = [
      el("Intro text before any heading."),
      el("Installation", "Title"),
      el(paragraph(1)),
      el(paragraph(2)),
      el("Usage", "Title"),
      el("Short usage note."),
    ];
    const parts = chunkElements({ elements, options: { splitter: "title", chunkSize: 250, chunkOverlap: 30 } });
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
    const semantic = chunkElements({ elements, options: { splitter: "semantic", chunkSize: 250, chunkOverlap: 30 } });
    expect(semantic.map((c) => c.text)).toEqual(parts.map((c) => c.text));
  });

  it("token: sizes count word and punctuation tokens", () => {
    const elements = Array.from({ length: 10 }, (_, i) => el(paragraph(i)));
    const parts = chunkElements({ elements, options: { splitter: "token", chunkSize: 60, chunkOverlap: 10 } });
    expect(parts.length).toBeGreaterThan(5);
    for (const p of parts) expect(tokenLength(p.text)).toBeLessThanOrEqual(60);
    expect(parts.some((p) => p.text.length > 60)).toBe(true);
  });
});
