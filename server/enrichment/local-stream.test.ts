import { describe, expect, it } from "vitest";
import { createLocalExtractor, type EnrichmentElement } from "./local-extractor";
import { annotateStreamedPages, countStreamedPages, finishStreamedDocument } from "./local-stream";

const SUBJECTS = ["granite quarry blocks", "espresso brewing pressure", "river delta sediment", "bridge cable steel"];

/** Pages on a few subjects, so that document frequencies differ from term to term. */
const pages: EnrichmentElement[][] = Array.from({ length: 23 }, (_, i) => {
  const subject = SUBJECTS[i % SUBJECTS.length]!;
  return [
    { type: "Title", text: `Notes on ${subject} ${i}` },
    {
      type: "NarrativeText",
      text:
        `The ${subject} were studied on day ${i} by the survey crew. Every ${subject.split(" ")[0]} sample was ` +
        `weighed, logged and compared with the ${SUBJECTS[(i + 1) % SUBJECTS.length]} records of the year before. ` +
        `The crew noted that ${subject} change slowly over decades, and wrote a short report for page ${i}.`,
    },
  ];
});

describe("local enrichment of a document read in slices", () => {
  it("annotates each page and summarises the document as the whole-document extractor does", () => {
    const whole = createLocalExtractor(pages);
    const expected = pages.map((_, i) => whole.annotate(i));
    const id = "doc-1";
    for (let i = 0; i < pages.length; i += 5) countStreamedPages(id, pages.slice(i, i + 5));
    const streamed = [];
    for (let i = 0; i < pages.length; i += 7) streamed.push(...annotateStreamedPages(id, pages.slice(i, i + 7)));
    expect(streamed).toEqual(expected);
    const summaries = expected.map((a) => a.summary);
    expect(finishStreamedDocument(id, summaries)).toEqual(whole.summarizeDocument(summaries));
    // Forgotten once finished: the next document of that id starts from nothing.
    expect(() => countStreamedPages(id, pages.slice(0, 1))).not.toThrow();
    finishStreamedDocument(id, null);
  });
});
