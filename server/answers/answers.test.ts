import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../env";
import type { RetrievedChunk } from "../retrieval/types";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { MarkerFilter, resolveCitations, richMarker } from "./citations";
import { AnswerEventSchema } from "./events.schema";
import { EXTRACTIVE_MODEL, extractiveAnswer, NOTHING_FOUND } from "./extractive";
import { generateAnswer } from "./generate";

const chunk = (n: number, text: string, page: number | null = n): RetrievedChunk => ({
  chunkId: `c${n}`,
  chunkSetId: "set",
  sourceId: `00000000-0000-4000-8000-00000000000${n}`,
  fileName: `doc-${n}.pdf`,
  text,
  title: "",
  heading: "",
  pageNumber: page,
  position: n,
  elementIds: [`el-${n}a`, `el-${n}b`],
  metadata: {},
  score: 1 / n,
  scores: { similarity: null, keyword: null, rerank: null },
});

const chunks = [
  chunk(1, "The Golden Gate Bridge opened in 1937. It spans the strait at the mouth of San Francisco Bay."),
  chunk(2, "Suspension bridges carry their deck on cables. The cables hang from towers anchored in rock."),
  chunk(3, "The bridge is painted international orange. The colour was chosen to stand out in the fog."),
];

describe("citations", () => {
  it("maps [N] to the N-th chunk, drops markers that point at nothing, and orders by index", () => {
    const { answer, citations } = resolveCitations(
      "Orange [3]. It opened in 1937 [1][7]. Cables [2, 9] hold it [0].",
      chunks,
    );
    expect(answer).toBe("Orange [3]. It opened in 1937 [1]. Cables [2] hold it.");
    expect(citations.map((c) => [c.index, c.fileName, c.pageNumber, c.elementId])).toEqual([
      [1, "doc-1.pdf", 1, "el-1a"],
      [2, "doc-2.pdf", 2, "el-2a"],
      [3, "doc-3.pdf", 3, "el-3a"],
    ]);
    expect(citations[0]!.textPreview).toContain("Golden Gate");
  });

  it("writes the rich marker form with file, page, element and name", () => {
    const { answer, citations } = resolveCitations("It opened in 1937 [1].", chunks, { markup: true });
    expect(answer).toBe(`It opened in 1937 ${richMarker(citations[0]!)}.`);
    expect(richMarker(citations[0]!)).toBe(`[1](${chunks[0]!.sourceId}|p1|eel-1a|fdoc-1.pdf)`);
  });

  it("holds back streamed marker text until it is known, and drops invalid markers mid-stream", () => {
    const filter = new MarkerFilter(chunks);
    const pieces = ["It opened [", "1", "] in 1937 [", "8] and [x] is ", "orange [3", "]."];
    const out = pieces.map((p) => filter.push(p));
    expect(out.map((o) => o.text).join("") + filter.flush()).toBe("It opened [1] in 1937  and [x] is orange [3].");
    expect(out.flatMap((o) => o.cited)).toEqual([1, 3]);
  });
});

describe("local extractive answerer", () => {
  it("quotes sentences of the chunks that match the question, each with its chunk's marker", () => {
    const { answer, chunks: numbered } = extractiveAnswer("When did the Golden Gate Bridge open?", chunks);
    expect(answer).toContain("The Golden Gate Bridge opened in 1937. [1]");
    // Markers count from 1 in order of first use; the chunks come back in that order.
    expect(numbered[0]).toBe(chunks[0]);
    for (const [, sentence, n] of answer.matchAll(/(.+?) \[(\d)\]\s*/g)) {
      expect(numbered[Number(n) - 1]!.text).toContain(sentence!.trim());
    }
  });

  it("says it found nothing when the chunks do not cover the question", () => {
    expect(extractiveAnswer("What is the population of Jupiter's moons?", chunks)).toMatchObject({
      answer: NOTHING_FOUND,
      chunks,
    });
    expect(extractiveAnswer("anything", [])).toMatchObject({ answer: NOTHING_FOUND });
  });
});

/** Chunk 1 quotes literature references; chunks 2 and 3 are unrelated documents its `[2]` and `[3]` must never cite. */
const referenced = [
  chunk(
    1,
    "Neglected tropical diseases remain common in Africa [1]. Mass drug administration reduced lymphatic " +
      "filariasis and trachoma across the region (Box 1) [2]. Integrated control lowers the cost per treated " +
      "person [3, 4] and reaches remote districts [5–7].",
  ),
  chunk(2, "Targeted therapies for metastatic colorectal cancer were compared between elderly and younger patients."),
  chunk(3, "Granite is quarried with diamond wire saws cooled by water."),
];

describe("a source's own bracketed numbers", () => {
  let chat: FakeChatServer;
  beforeAll(async () => (chat = await startFakeChatServer()));
  afterAll(async () => {
    setRuntimeEnv("LLM_PROVIDER", "local");
    await chat.close();
  });

  it("are written (N) in the local answer, whose only markers are its own", () => {
    const { answer } = extractiveAnswer("Mass drug administration reduced lymphatic filariasis?", referenced);
    expect(answer).toContain("lymphatic filariasis and trachoma across the region (Box 1) (2). [1]");
    const { citations } = resolveCitations(answer, referenced);
    expect(citations.map((c) => c.index)).toEqual([1]);
    expect(answer.match(/\[\d+\]/g)).toEqual(["[1]"]);
  });

  it("reach a model as (N), so a sentence it copies from a passage cites only what the model marked", async () => {
    setRuntimeEnv("LLM_PROVIDER", "openai");
    setRuntimeEnv("LLM_BASE_URL", chat.baseUrl);
    setRuntimeEnv("LLM_MODEL", "stand-in-chat");
    // The stand-in answers with the best passage's best sentence, copied as the prompt shows it, and its [N].
    const tokens: string[] = [];
    const cited: number[] = [];
    const result = await generateAnswer({
      question: "Did mass drug administration reduce lymphatic filariasis and trachoma?",
      chunks: referenced,
      onToken: (t) => tokens.push(t),
      onCitation: (c) => cited.push(c.index),
    });
    expect(result.citations.map((c) => [c.index, c.fileName])).toEqual([[1, "doc-1.pdf"]]);
    expect(cited).toEqual([1]);
    expect(result.answer).toContain("(Box 1) (2).");
    expect(tokens.join("")).toBe(result.answer);
    const passages = chat.requests.at(-1)!.messages.at(-1)!.content;
    expect(passages).toContain("the region (Box 1) (2). Integrated control lowers the cost per treated person (3, 4)");
  });
});

describe("generateAnswer", () => {
  let chat: FakeChatServer;
  beforeAll(async () => (chat = await startFakeChatServer()));
  afterAll(async () => {
    setRuntimeEnv("LLM_PROVIDER", "local");
    await chat.close();
  });

  it("without a chat model answers locally and names the method; tokens and citations stream in order", async () => {
    setRuntimeEnv("LLM_PROVIDER", "local");
    const events: unknown[] = [];
    const result = await generateAnswer({
      question: "What colour is the bridge painted?",
      chunks,
      onToken: (text) => events.push({ type: "token", text }),
      onCitation: (citation) => events.push({ type: "citation", citation }),
    });
    expect(result.model).toBe(EXTRACTIVE_MODEL);
    // The only chunk quoted is the third retrieved; markers count in order of first use, so it is [1].
    expect(result.answer).toContain("international orange. [1]");
    expect(result.citations.map((c) => [c.index, c.fileName])).toEqual([[1, "doc-3.pdf"]]);
    expect(events.every((e) => AnswerEventSchema.safeParse(e).success)).toBe(true);
    const tokens = events.filter((e) => (e as { type: string }).type === "token") as { text: string }[];
    expect(tokens.map((t) => t.text).join("")).toBe(result.answer);
    expect(events.findIndex((e) => (e as { type: string }).type === "citation")).toBeGreaterThan(0);
  });

  it("with a chat model streams its reply, maps its markers and reports usage", async () => {
    setRuntimeEnv("LLM_PROVIDER", "openai");
    setRuntimeEnv("LLM_BASE_URL", chat.baseUrl);
    setRuntimeEnv("LLM_MODEL", "stand-in-chat");
    chat.replyWith(() => "Painted orange [3] to be seen in fog [3][5].");
    const tokens: string[] = [];
    const cited: number[] = [];
    const result = await generateAnswer({
      question: "What colour is the bridge?",
      chunks,
      history: [
        { role: "user", content: "Tell me about the bridge" },
        { role: "assistant", content: "It is long [1]." },
      ],
      onToken: (t) => tokens.push(t),
      onCitation: (c) => cited.push(c.index),
    });
    expect(result).toMatchObject({ answer: "Painted orange [3] to be seen in fog [3].", model: "stand-in-chat" });
    expect(tokens.join("")).toBe("Painted orange [3] to be seen in fog [3].");
    expect(cited).toEqual([3]);
    expect(result.usage.tokensIn).toBeGreaterThan(0);
    const sent = chat.requests.at(-1)!;
    expect(sent.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(sent.messages.at(-1)!.content).toContain("[3] (doc-3.pdf, page 3)\nThe bridge is painted");
  });
});
