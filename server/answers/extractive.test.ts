import { describe, expect, it } from "vitest";
import { splitSentences } from "../chunking/sentences";
import { chunkElements } from "../chunking/chunk";
import { setRuntimeEnv } from "../env";
import type { RetrievedChunk } from "../retrieval/types";
import type { Citation } from "./events.schema";
import { extractiveAnswer, NOTHING_FOUND } from "./extractive";
import { generateAnswer } from "./generate";
import { wholeSentences, type SourceElement } from "./whole-sentences";

/** The local answerer's promises: whole sentences, markers 1..n in first-use order, abstention only on nothing. */

const chunk = (n: number, text: string, extra: Partial<RetrievedChunk> = {}): RetrievedChunk => ({
  chunkId: `c${n}`,
  chunkSetId: "set",
  sourceId: `00000000-0000-4000-8000-00000000000${n}`,
  fileName: `doc-${n}.md`,
  text,
  title: "",
  heading: "",
  pageNumber: null,
  position: n,
  elementIds: [],
  metadata: {},
  score: 1 - n / 10,
  scores: { similarity: null, keyword: null, rerank: null },
  ...extra,
});

/** `sentence [N]` pairs of an answer. */
const quoted = (answer: string) =>
  [...answer.matchAll(/(.+?)\s\[(\d+)\]\s*/g)].map((m) => ({ text: m[1]!.trim(), n: Number(m[2]) }));

const ELEMENT =
  "Granite forms when magma cools slowly deep underground. Quarry crews cut granite blocks with diamond wire " +
  "saws cooled by water. The blocks are then tested for strength before they leave the quarry.";

describe("whole sentences only", () => {
  it("never quotes the piece of a sentence a chunk cut falls inside, when the source element is known", () => {
    // The chunk starts mid-sentence (an overlap or a split) and ends mid-sentence (the size ran out).
    const cut = chunk(1, "cut granite blocks with diamond wire saws cooled by water. The blocks are then tested", {
      elementIds: ["el-1"],
    });
    const elements = new Map<string, SourceElement>([["el-1", { text: ELEMENT, type: "NarrativeText" }]]);
    expect(wholeSentences(cut.text, [elements.get("el-1")!])).toEqual([]);
    const whole = chunk(2, `Quarrying\n\n${ELEMENT}`, { elementIds: ["el-0", "el-1"] });
    elements.set("el-0", { text: "Quarrying", type: "Title" });
    const result = extractiveAnswer("How do quarry crews cut granite blocks with wire saws?", [cut, whole], elements);
    expect(result.answer).toContain("Quarry crews cut granite blocks with diamond wire saws cooled by water. [1]");
    const sentences = new Set(ELEMENT.split(/(?<=\.) /));
    for (const q of quoted(result.answer)) expect(sentences.has(q.text), q.text).toBe(true);
    expect(result.chunks[0]).toBe(whole);
  });

  it("without the elements, leaves out a chunk's first piece that opens mid-sentence and a last one left open", () => {
    expect(
      wholeSentences("wire saws cooled by water. Granite blocks are tested for strength. The blocks then lea"),
    ).toEqual(["Granite blocks are tested for strength."]);
    const { answer } = extractiveAnswer("Are granite blocks cut with wire saws cooled by water?", [
      chunk(1, "cut with diamond wire saws cooled by water. Granite blocks are tested for strength."),
    ]);
    expect(answer).toBe("Granite blocks are tested for strength. [1]");
  });
});

describe("whole sentences on chunks the chunker cut", () => {
  const text =
    "Vermont granite is quarried in deep pits near Barre, where the stone lies in thick beds of grey rock that " +
    "crews have worked since the eighteen hundreds. Quarry crews cut the granite blocks with diamond wire saws; " +
    "Water cools the wire while it cuts. Each block is tested for strength before it leaves the quarry. Blocks " +
    "that fail the test are crushed into gravel for roads, railway beds and concrete made in the valley below.";

  it("quotes only sentences of the element, whichever chunk a sentence is read from", async () => {
    // Small chunks: the long first sentence is split between words, and chunks repeat the end of the one before.
    const pieces = await chunkElements({
      elements: [{ type: "NarrativeText", text, pageNumber: null }],
      options: { splitter: "character", chunkSize: 130, chunkOverlap: 60 },
    });
    const chunks = pieces.map((p, i) => chunk(i + 1, p.text, { elementIds: ["el-1"], score: 0.9 - i / 100 }));
    // The cut falls mid-sentence: the first chunk ends inside the first sentence, the second starts inside it.
    expect(chunks[0]!.text).toMatch(/worked since$/);
    expect(chunks[1]!.text).toMatch(/^lies in thick beds/);
    const elements = new Map<string, SourceElement>([["el-1", { text, type: "NarrativeText" }]]);
    const sentences = new Set(splitSentences(text));
    const answers = [
      "Where is Vermont granite quarried?",
      "How do quarry crews cut granite blocks?",
      "What are blocks that fail the strength test crushed into?",
    ].map((question) => extractiveAnswer(question, chunks, elements).answer);
    for (const answer of answers) {
      expect(answer).not.toBe(NOTHING_FOUND);
      for (const q of quoted(answer)) expect(sentences.has(q.text), q.text).toBe(true);
    }
    expect(answers[2]).toContain(
      "are crushed into gravel for roads, railway beds and concrete made in the valley below.",
    );
  });
});

describe("citation numbers", () => {
  const chunks = [
    chunk(1, "Basalt is a dark volcanic rock. It cools quickly at the surface of lava flows."),
    chunk(2, "Suspension bridges carry their deck on cables hung from towers."),
    chunk(3, "Granite blocks are cut with diamond wire saws. The wire is cooled with water while it cuts."),
    chunk(4, "Granite is quarried in Vermont, where the wire saws of the quarries run all day."),
  ];

  it("are 1..n in order of first use with no gaps, pointing at the chunks handed back in that order", () => {
    // Two parts, two documents: the granite chunk (retrieved third) answers most, the basalt one (first) the rest.
    const result = extractiveAnswer("Which rock is dark and volcanic, and how are granite blocks cut?", chunks);
    expect(result.answer).toBe(
      "Granite blocks are cut with diamond wire saws. [1] Basalt is a dark volcanic rock. [2]",
    );
    expect(result.chunks.slice(0, 2)).toEqual([chunks[2], chunks[0]]);
    expect(new Set(result.chunks)).toEqual(new Set(chunks));
    for (const q of quoted(result.answer)) expect(result.chunks[q.n - 1]!.text).toContain(q.text);
  });

  it("come out of generateAnswer and its stream as 1..n, each naming the chunk it quotes", async () => {
    setRuntimeEnv("LLM_PROVIDER", "local");
    const tokens: string[] = [];
    const streamed: Citation[] = [];
    const result = await generateAnswer({
      question: "How is the saw wire cooled when granite blocks are cut?",
      chunks,
      onToken: (t) => tokens.push(t),
      onCitation: (c) => streamed.push(c),
    });
    expect(tokens.join("")).toBe(result.answer);
    expect(result.citations.map((c) => c.index)).toEqual(result.citations.map((_, i) => i + 1));
    expect(streamed.map((c) => c.index)).toEqual(result.citations.map((c) => c.index));
    expect(result.citations[0]!.fileName).toBe("doc-3.md");
    expect(result.answer.match(/\[\d+\]/)![0]).toBe("[1]");
  });

  it("prefer the fewest documents: a second document is quoted only for what the first leaves out", () => {
    const result = extractiveAnswer("How are granite blocks cut with wire saws?", chunks);
    expect(new Set(quoted(result.answer).map((q) => q.n))).toEqual(new Set([1]));
  });
});

describe("abstention", () => {
  const chunks = [
    chunk(
      1,
      "Granite holds much quartz. Feldspar gives it its colour. Mica makes it glitter. It forms underground. " +
        "There, magma cools. It cools slowly.",
    ),
    chunk(2, "Sandstone is a sedimentary rock of sand grains cemented together by silica or calcite."),
  ];

  it("answers whenever a chunk read is about the question, even if no single sentence holds much of it", () => {
    // The question's terms are spread over six short sentences: the old per-sentence threshold found nothing here.
    const { answer } = extractiveAnswer(
      "Is granite, with its quartz, feldspar and mica, formed underground from magma that cools slowly?",
      chunks,
    );
    expect(answer).not.toBe(NOTHING_FOUND);
    expect(quoted(answer).map((q) => q.n)).toContain(1);
  });

  it("says it found nothing only when nothing retrieved is about the question", () => {
    expect(extractiveAnswer("Who won the 1998 football world cup final?", chunks).answer).toBe(NOTHING_FOUND);
    expect(extractiveAnswer("What is granite made of?", []).answer).toBe(NOTHING_FOUND);
  });
});
