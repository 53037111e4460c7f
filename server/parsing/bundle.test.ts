import { describe, expect, it } from "vitest";
import { pdfDoc } from "../testing/fixtures";
import { partitionBundle } from "./bundle";
import { decodeBundle, encodeBundle } from "./bundle-format";
import { partitionCode } from "./code";
import { partitionSubtitleFile } from "./media/subtitle-file";
import { partitionDocument } from "./partition";
import { partitionWebPage } from "./web-page";

/** What connector snapshots become: fetched web pages, repository files and captions, parsed as one source. */

const page = (body: string) =>
  Buffer.from(`<!doctype html><html lang="en"><head><title>Granite | Quarry Notes</title></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav><header><p>Quarry Notes site header</p></header>
${body}
<aside>Buy our premium wire saw today</aside><footer>© 2026 Quarry Notes</footer></body></html>`);

const ARTICLE = `<main><article><h1>Cutting granite</h1>
<p>Granite is cut with a diamond wire saw that loops through holes drilled into the face. The wire runs at high speed and water cools it while carrying the dust away, which keeps the crew safe.</p>
<h2>Tools</h2><ul><li>Diamond wire saw</li><li>Feathers and wedges</li></ul>
<table><tr><th>Stone</th><th>Hardness</th></tr><tr><td>Granite</td><td>6-7</td></tr></table>
<p>Read the <a href="/docs/safety.html">safety rules</a> before the first cut, and check the joints of the rock face every morning before work starts.</p>
</article></main>`;

describe("web pages", () => {
  it("keeps the main content (Readability): title, headings, lists, tables and absolute links, without the chrome", () => {
    const { elements } = partitionWebPage({ bytes: page(ARTICLE), url: "https://quarry.example/docs/granite.html" });
    const texts = elements.map((e) => e.text).join("\n");
    expect(texts).not.toMatch(/Home|Shop|site header|premium wire saw|© 2026/);
    expect(elements[0]).toMatchObject({ type: "Title", text: "Cutting granite" });
    expect(elements.map((e) => e.type)).toEqual(
      expect.arrayContaining(["Title", "NarrativeText", "ListItem", "Table"]),
    );
    expect(elements.find((e) => e.type === "Table")?.html).toContain("<th>Hardness</th>");
    const linked = elements.find((e) => e.text.startsWith("Read the safety rules"));
    expect(linked?.metadata).toMatchObject({
      link_urls: ["https://quarry.example/docs/safety.html"],
      url: "https://quarry.example/docs/granite.html",
      extraction: "readability",
      page_title: "Granite | Quarry Notes",
    });
  });

  it("falls back to removing navigation, header, footer and aside when there is no article", () => {
    const { elements } = partitionWebPage({
      bytes: page(
        "<div><h2>Links</h2><ul><li><a href='a.html'>Alpha</a></li><li><a href='b.html'>Beta</a></li></ul></div>",
      ),
      url: "https://quarry.example/index.html",
    });
    expect(elements.map((e) => e.text)).toEqual(["Links", "Alpha", "Beta"]);
    expect(elements[1]?.metadata).toMatchObject({
      extraction: "boilerplate-removal",
      link_urls: ["https://quarry.example/a.html"],
    });
  });
});

describe("source code", () => {
  it("cuts between top-level blocks and keeps line numbers and the language", () => {
    const source = Array.from({ length: 120 }, (_, i) => `function f${i}() {\n  return ${i};\n}\n`).join("\n");
    const { elements } = partitionCode({ bytes: Buffer.from(source), language: "javascript" });
    expect(elements.length).toBeGreaterThan(1);
    expect(elements.every((e) => e.type === "CodeSnippet" && e.text.length <= 1600)).toBe(true);
    expect(elements[0]?.metadata).toMatchObject({ language: "javascript", line_start: 1 });
    expect(elements[0]?.text.startsWith("function f0()")).toBe(true);
    expect(elements[0]?.markdown).toMatch(/^```javascript\n/);
    const second = elements[1]!;
    const startLine = source.split("\n").indexOf(second.text.split("\n")[0]!) + 1;
    expect(second.metadata?.line_start).toBe(startLine);
  });
});

describe("subtitle files", () => {
  it("reads .srt and .vtt into timed paragraphs, and refuses a file without cues", () => {
    const srt =
      "1\n00:00:01,000 --> 00:00:03,500\nThe blast is at noon.\n\n2\n00:00:03,600 --> 00:00:06,000\nClear the north bench.\n";
    const { elements } = partitionSubtitleFile({ bytes: Buffer.from(srt), fileType: "srt" });
    expect(elements).toHaveLength(1);
    expect(elements[0]).toMatchObject({
      text: "The blast is at noon. Clear the north bench.",
      metadata: { start: 1, end: 6, start_time: "00:00:01.000" },
    });
    expect(() => partitionSubtitleFile({ bytes: Buffer.from("WEBVTT\n\n"), fileType: "vtt" })).toThrow(
      "holds no timed cues",
    );
  });
});

describe("bundles", () => {
  it("round-trips documents and their entries", () => {
    const bytes = encodeBundle([
      { entry: { name: "a", type: "txt", pageNumber: 1, metadata: { x: 1 } }, bytes: Buffer.from("alpha") },
      { entry: { name: "b", type: "md", pageNumber: 2, metadata: {} }, bytes: Buffer.from("# beta") },
    ]);
    const decoded = decodeBundle(bytes);
    expect(decoded.map((d) => [d.entry.name, Buffer.from(d.bytes).toString()])).toEqual([
      ["a", "alpha"],
      ["b", "# beta"],
    ]);
    expect(() => decodeBundle(Buffer.from("not a bundle"))).toThrow();
  });

  it("gives each document its page of the source and its metadata, keeps a PDF's own page, and skips what fails", async () => {
    const pdf = await pdfDoc({ pages: 2, title: "Safety manual" });
    const bytes = encodeBundle([
      {
        entry: {
          name: "https://q.example/",
          type: "webpage",
          url: "https://q.example/",
          pageNumber: 1,
          metadata: { url: "https://q.example/" },
        },
        bytes: page(ARTICLE),
      },
      {
        entry: {
          name: "https://q.example/manual.pdf",
          type: "pdf",
          pageNumber: 2,
          metadata: { url: "https://q.example/manual.pdf" },
        },
        bytes: pdf,
      },
      {
        entry: { name: "https://q.example/broken.pdf", type: "pdf", pageNumber: 3, metadata: {} },
        bytes: Buffer.from("%PDF-1.7 broken"),
      },
      {
        entry: {
          name: "src/a.ts",
          type: "code",
          language: "typescript",
          title: "src/a.ts",
          pageNumber: 4,
          metadata: { path: "src/a.ts" },
        },
        bytes: Buffer.from("export const a = 1;\n"),
      },
    ]);
    const result = await partitionBundle({ bytes, method: "basic" }, partitionDocument);
    expect(result.totalPages).toBe(4);
    const pdfElements = result.elements.filter((e) => e.pageNumber === 2);
    expect(pdfElements[0]).toMatchObject({
      text: "Safety manual",
      metadata: { url: "https://q.example/manual.pdf", document_page_number: 1 },
    });
    expect(pdfElements.some((e) => e.metadata?.document_page_number === 2)).toBe(true);
    expect(result.elements.filter((e) => e.pageNumber === 4).map((e) => [e.type, e.text])).toEqual([
      ["Title", "src/a.ts"],
      ["CodeSnippet", "export const a = 1;"],
    ]);
    expect(result.elements.some((e) => e.pageNumber === 3)).toBe(false);
    expect(result.warnings.some((w) => w.startsWith("https://q.example/broken.pdf: could not be parsed"))).toBe(true);
  });

  it("fails when nothing at all could be read", async () => {
    const bytes = encodeBundle([
      { entry: { name: "x.pdf", type: "pdf", pageNumber: 1, metadata: {} }, bytes: Buffer.from("nope") },
    ]);
    await expect(partitionBundle({ bytes, method: "basic" }, partitionDocument)).rejects.toThrow(
      /^Nothing could be read: x\.pdf: /,
    );
  });
});
