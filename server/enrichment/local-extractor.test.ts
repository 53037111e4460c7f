import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { partitionDocument } from "../parsing/partition";
import { groupPages } from "./enrich";
import { createLocalExtractor, type EnrichmentElement } from "./local-extractor";

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus");

const p = (text: string, type = "NarrativeText"): EnrichmentElement => ({ type, text });

/** Three pages on three subjects, written as prose. */
const PAGES: EnrichmentElement[][] = [
  [
    p("Granite quarrying", "Title"),
    p(
      "Granite is quarried from massive igneous intrusions that cooled slowly deep underground. Quarry workers first " +
        "map the joints and fractures of the granite face before any drilling starts. Diamond wire saws then cut " +
        "the granite into large blocks, and cranes lift the blocks onto trucks.",
    ),
    p(
      "Blocks with hidden fractures are rejected, because they crack during cutting and polishing. Polished granite " +
        "slabs end up as kitchen counters, monuments and building facades. A granite quarry can stay in operation " +
        "for more than a century when the rock face is worked carefully.",
    ),
    p("Page 1", "PageNumber"),
  ],
  [
    p("Brewing espresso", "Title"),
    p(
      "Espresso is brewed by forcing hot water through finely ground coffee under pressure. Baristas adjust the " +
        "grind size until a double shot of espresso pours in about thirty seconds. Fresh coffee beans release " +
        "carbon dioxide, which forms the crema on top of the espresso.",
    ),
    p(
      "Stale coffee beans taste flat because their aromatic oils oxidise once the bag is open. Milk for a " +
        "cappuccino is steamed until it forms a smooth microfoam, then poured over the espresso shot.",
    ),
    p("Page 2", "PageNumber"),
  ],
  [
    p("Tidal energy", "Title"),
    p(
      "Tidal power stations turn the rise and fall of the sea into electricity. Turbines placed in a tidal barrage " +
        "spin as the tide flows in and out of the estuary. Because tides are predictable, tidal energy complements " +
        "wind and solar power on the electricity grid.",
    ),
    p("Page 3", "PageNumber"),
  ],
];

describe("local extractor", () => {
  const extractor = createLocalExtractor(PAGES);
  const annotations = PAGES.map((_, i) => extractor.annotate(i));

  it("gives each page keywords that set it apart, within the limits", () => {
    const [granite, coffee, tidal] = annotations;
    expect(granite?.keywords).toContain("granite");
    expect(coffee?.keywords).toEqual(expect.arrayContaining(["espresso", "coffee"]));
    expect(tidal?.keywords).toEqual(expect.arrayContaining(["tidal"]));
    for (const a of annotations) {
      expect(a.keywords.length).toBeGreaterThan(3);
      expect(a.keywords.length).toBeLessThanOrEqual(10);
      expect(new Set(a.keywords.map((k) => k.toLowerCase())).size).toBe(a.keywords.length);
      // Stopwords, generic words and page furniture never make a keyword.
      for (const k of a.keywords)
        expect(["the", "and", "page", "then", "first", "used"]).not.toContain(k.toLowerCase());
    }
    expect(granite?.keywords).not.toContain("espresso");
  });

  it("names multi-word topics from recurring keyphrases", () => {
    for (const a of annotations) {
      expect(a.topics.length).toBeGreaterThan(0);
      expect(a.topics.length).toBeLessThanOrEqual(5);
    }
    expect(annotations[0]?.topics.some((t) => /granite/i.test(t) && t.includes(" "))).toBe(true);
    expect(annotations[1]?.topics.some((t) => /espresso|coffee/i.test(t) && t.includes(" "))).toBe(true);
  });

  it("summarises each page with one to three of its own sentences", () => {
    for (const [i, a] of annotations.entries()) {
      expect(a.summary).toBeTruthy();
      const sentences = a.summary!.match(/[^.!?]+[.!?]/g) ?? [];
      expect(sentences.length).toBeGreaterThanOrEqual(1);
      expect(sentences.length).toBeLessThanOrEqual(3);
      const pageText = PAGES[i]!.map((e) => e.text).join(" ");
      for (const s of sentences) expect(pageText).toContain(s.trim());
    }
    expect(annotations[2]?.summary).toMatch(/tid/i);
  });

  it("summarises the document from its pages' summaries", () => {
    const doc = extractor.summarizeDocument(annotations.map((a) => a.summary));
    expect(doc).toBeTruthy();
    expect(doc!.length).toBeLessThanOrEqual(600);
    expect(annotations.some((a) => a.summary && doc!.includes(a.summary.split(". ")[0]!))).toBe(true);
  });

  it("leaves a page without text empty and survives odd input", () => {
    const odd = createLocalExtractor([
      [],
      [p("12 34 56")],
      [p("日本語のテキストを分割します。人権宣言の第一条です。")],
    ]);
    expect(odd.annotate(0)).toEqual({ summary: null, keywords: [], topics: [] });
    expect(odd.annotate(1).keywords).toEqual([]);
    expect(odd.annotate(2).keywords.length).toBeGreaterThan(0);
    expect(odd.summarizeDocument([null, null])).toBeNull();
  });
});

describe("page groups", () => {
  it("groups paged elements by page and pageless ones by 30", () => {
    const paged = groupPages(
      [1, 1, 2, 2, 2, 4].map((page, position) => ({ position, pageNumber: page, type: "NarrativeText", text: "x" })),
    );
    expect(paged.map((g) => [g.pageNumber, g.first, g.last])).toEqual([
      [1, 0, 1],
      [2, 2, 4],
      [4, 5, 5],
    ]);
    const flat = groupPages(
      Array.from({ length: 75 }, (_, position) => ({ position, pageNumber: null, type: "NarrativeText", text: "x" })),
    );
    expect(flat.map((g) => [g.first, g.last])).toEqual([
      [0, 29],
      [30, 59],
      [60, 74],
    ]);
  });
});

describe.runIf(existsSync(CORPUS))("local extractor on the corpus", () => {
  it("annotates the 13-page DPR paper sensibly", async () => {
    const file = "dpr-paper-multi-column-13p.pdf";
    const { elements } = await partitionDocument({
      bytes: readFileSync(path.join(CORPUS, file)),
      fileName: file,
      fileType: "pdf",
      method: "basic",
    });
    const groups = groupPages(
      elements.map((e, position) => ({ position, pageNumber: e.pageNumber, type: e.type, text: e.text })),
    );
    expect(groups).toHaveLength(13);
    const extractor = createLocalExtractor(groups.map((g) => g.elements));
    const annotations = groups.map((_, i) => extractor.annotate(i));
    const doc = extractor.summarizeDocument(annotations.map((a) => a.summary));

    const first = annotations[0]!;
    expect(first.keywords.map((k) => k.toLowerCase())).toEqual(expect.arrayContaining(["retrieval", "dense"]));
    expect(first.topics.join(" ")).toMatch(/question answering/i);
    expect(first.summary).toMatch(/passage retrieval|dense/i);
    const allKeywords = annotations.flatMap((a) => a.keywords.map((k) => k.toLowerCase()));
    expect(allKeywords).toEqual(expect.arrayContaining(["passages", "question"]));
    expect(doc).toMatch(/passage|retriev/i);
  });

  it("annotates a page of War and Peace (single-page text)", async () => {
    const file = "book-war-and-peace-1p.txt";
    const { elements } = await partitionDocument({
      bytes: readFileSync(path.join(CORPUS, file)),
      fileName: file,
      fileType: "txt",
      method: "basic",
    });
    const groups = groupPages(
      elements.map((e, position) => ({ position, pageNumber: e.pageNumber, type: e.type, text: e.text })),
    );
    const extractor = createLocalExtractor(groups.map((g) => g.elements));
    const first = extractor.annotate(0);
    expect(first.keywords.slice(0, 3).map((k) => k.toLowerCase())).toContain("prince");
    expect(first.topics).toContain("Anna Pavlovna");
    expect(first.summary).toMatch(/prince/i);
  });
});
