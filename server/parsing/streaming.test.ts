import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { partitionDelimited, partitionDelimitedStream } from "./delimited";
import { partitionMarkdown, partitionMarkdownStream } from "./markdown";
import { partitionText, partitionTextStream } from "./text";
import type { ParsedElement } from "./types";
import { batchSender, ELEMENT_BATCH, ELEMENT_BATCH_BYTES, elementSize } from "./worker/batches";

/**
 * Large text, Markdown and CSV files are parsed a chunk at a time (bounded memory); the elements must be those of
 * parsing the whole file, also when rows, lines, "\r\n" and characters are cut between chunks.
 */

const dir = mkdtempSync(path.join(tmpdir(), "quarry-stream-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileOf = (name: string, bytes: Buffer) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
};

const collect = async (
  parse: (emit: (e: ParsedElement) => Promise<void>) => Promise<{ warnings: string[] }>,
): Promise<{ elements: ParsedElement[]; warnings: string[] }> => {
  const elements: ParsedElement[] = [];
  const { warnings } = await parse(async (e) => void elements.push(e));
  return { elements, warnings };
};

const repeat = (parts: string[], size: number) => {
  let out = "";
  for (let i = 0; out.length < size; i++) out += parts[i % parts.length]!.replace("#n", String(i));
  return out;
};

describe("streamed parsing", () => {
  it("gives the CSV tables of the whole-file parse", async () => {
    const rows = Array.from(
      { length: 900 },
      (_, i) => `r${i};"multi\nline ${i}; ""q""";${i % 3 ? "x" : ""};${"é".repeat(i % 5)}${i % 7 ? "" : ";extra;;"}`,
    );
    const bytes = Buffer.from("\uFEFFkey;note;flag;acc\r\n" + rows.join("\r\n") + "\n\n  \n");
    const file = fileOf("t.csv", bytes);
    const whole = partitionDelimited({ bytes, fileType: "csv" });
    for (const chunkBytes of [undefined, 1500]) {
      const streamed = await collect((emit) =>
        partitionDelimitedStream({ source: { path: file, chunkBytes }, fileType: "csv" }, emit),
      );
      expect(streamed).toEqual({ elements: whole.elements, warnings: whole.warnings });
    }
  });

  it("gives the paragraphs of the whole-file parse for text", async () => {
    const text = repeat(
      ["Title #n\r\n", "\r\n", "- item #n\r", "\n", "para \u0000 é #n\f", "Short\n\n", "continued #n\n"],
      60_000,
    );
    const bytes = Buffer.from(text + "\r");
    const file = fileOf("t.txt", bytes);
    const whole = partitionText({ bytes });
    const streamed = await collect((emit) => partitionTextStream({ source: { path: file, chunkBytes: 777 } }, emit));
    expect(streamed.elements).toEqual(whole.elements);
  });

  it("gives the blocks of the whole-file parse for Markdown, cut only where that is safe", async () => {
    const md = repeat(
      [
        "# Title #n\r\n\r\nPara one\r\nstill one\r\n\r\n",
        "```js\ncode\n\nmore #n\n```\n\n",
        "<!-- comment\n\nstill comment -->\n\n",
        "- a #n\n\n- b\n\n  continued\n\n1. x\n\n2. y\n\n",
        "    indented\n\n    code #n\n\n",
        "| a | b |\n|---|---|\n| 1 | #n |\n\n",
        "<pre>\n\nx\n</pre>\n\nafter\n\n",
        "~~~~\n```\n\n~~~\nin #n\n~~~~\n\n",
      ],
      // Past the size of one piece (256 K characters), so the document is cut.
      700_000,
    );
    const bytes = Buffer.from(md);
    const file = fileOf("t.md", bytes);
    const whole = partitionMarkdown({ bytes });
    const streamed = await collect((emit) =>
      partitionMarkdownStream({ source: { path: file, chunkBytes: 4099 } }, emit),
    );
    expect(streamed.elements).toEqual(whole.elements);
  });

  it("sends the app batches bounded in count and size", async () => {
    const sizes: { count: number; size: number }[] = [];
    let next = 0;
    const sender = batchSender(async (elements, first) => {
      expect(first).toBe(next);
      next += elements.length;
      sizes.push({ count: elements.length, size: elements.reduce((n, e) => n + elementSize(e), 0) });
    });
    const big = "x".repeat(60_000);
    for (let i = 0; i < 500; i++) await sender.add({ type: "Table", text: big, html: big, pageNumber: null });
    for (let i = 0; i < 500; i++) await sender.add({ type: "NarrativeText", text: "short", pageNumber: null });
    await sender.flush();
    expect(next).toBe(1000);
    const largest = Math.max(...sizes.map((s) => s.size));
    expect(Math.max(...sizes.map((s) => s.count))).toBeLessThanOrEqual(ELEMENT_BATCH);
    // A batch closes with the element that reaches the bound: at most one element over it.
    expect(largest).toBeLessThan(ELEMENT_BATCH_BYTES + 121_000);
  });
});
