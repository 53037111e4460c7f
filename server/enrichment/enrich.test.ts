import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { enrichDocument, type EnrichmentInputElement } from "./enrich";
import {
  quotedText,
  startFakeChatServer,
  type ChatRequestBody,
  type FakeChatServer,
} from "../testing/fake-chat-server";
import { PAGE_TEXT_CHARS } from "./llm-annotator";
import { LOCAL_ENRICHMENT_MODEL } from "./local-extractor";

/** Enrichment through the real chat client against a local OpenAI-compatible server. */

let chat: FakeChatServer;
beforeAll(async () => {
  chat = await startFakeChatServer();
});
afterAll(async () => chat?.close());
beforeEach(() => {
  chat.requests.length = 0;
  chat.failWith(null);
  chat.replyWith(null);
});

const SUBJECTS = ["granite quarries", "espresso brewing", "tidal turbines", "orchard pruning"];
const page = (n: number, extra = ""): EnrichmentInputElement[] => {
  const subject = SUBJECTS[(n - 1) % SUBJECTS.length]!;
  return [
    { position: 0, pageNumber: n, type: "Title", text: `Notes on ${subject}` },
    {
      position: 0,
      pageNumber: n,
      type: "NarrativeText",
      text:
        `The study of ${subject} begins with careful observation in the field. ` +
        `Practitioners of ${subject} record measurements every season and compare the results. ${extra}`,
    },
  ];
};
const doc = (pages: number, extra = "") =>
  Array.from({ length: pages }, (_, i) => page(i + 1, extra))
    .flat()
    .map((e, position) => ({ ...e, position }));

const model = () => ({ baseUrl: chat.baseUrl, model: "fake-gpt-mini", apiKey: "sk-test" });

describe("enrichment with a chat model", () => {
  it("annotates every page and the document with the model, in JSON mode, from bounded page text", async () => {
    const result = await enrichDocument({
      fileName: "field-notes.pdf",
      elements: doc(3, "x ".repeat(5000)),
      llm: model(),
    });
    expect(result.llmPages).toBe(3);
    expect(result.models).toEqual(["fake-gpt-mini"]);
    expect(result.warnings).toEqual([]);
    expect(result.pages.map((p) => [p.first, p.last, p.model])).toEqual([
      [0, 1, "fake-gpt-mini"],
      [2, 3, "fake-gpt-mini"],
      [4, 5, "fake-gpt-mini"],
    ]);
    expect(result.pages[1]?.summary).toMatch(/^This page is about \w+\. It begins: Notes on espresso brewing/);
    expect(result.pages[1]?.keywords).toContain("espresso");
    expect(result.pages[1]?.keywords.length).toBeLessThanOrEqual(10);
    expect(result.documentAnnotation).toMatch(/^Overall: This page is about granite/);

    expect(chat.requests).toHaveLength(4);
    for (const req of chat.requests) {
      expect(req.model).toBe("fake-gpt-mini");
      expect(req.response_format).toEqual({ type: "json_object" });
    }
    const pageTexts = chat.requests.slice(0, 3).map(quotedText);
    for (const text of pageTexts) expect(text.length).toBeLessThanOrEqual(PAGE_TEXT_CHARS + 10);
    expect(pageTexts.some((t) => t.endsWith("[…]"))).toBe(true);
  });

  it("falls back to the local extractor for a page the model fails on, and says so", async () => {
    const isPage = (body: ChatRequestBody) => /one page/.test(body.messages[0]?.content ?? "");
    chat.failWith((body) => (isPage(body) && /tidal/.test(quotedText(body)) ? 500 : null));
    const result = await enrichDocument({ fileName: "notes.pdf", elements: doc(4), llm: model() });
    expect(result.pages.map((p) => p.model)).toEqual([
      "fake-gpt-mini",
      "fake-gpt-mini",
      LOCAL_ENRICHMENT_MODEL,
      "fake-gpt-mini",
    ]);
    expect(result.pages[2]?.keywords).toContain("tidal");
    expect(result.models).toEqual(["fake-gpt-mini", LOCAL_ENRICHMENT_MODEL]);
    expect(result.warnings).toEqual([
      expect.stringMatching(
        /^Enrichment used the local extractor for 1 of 4 pages: the model fake-gpt-mini failed \(.*HTTP 500/,
      ),
    ]);
    expect(result.documentAnnotation).toBeTruthy();
  });

  it("stops asking a model that keeps failing, and never fails", async () => {
    chat.failWith(() => 503);
    const result = await enrichDocument({ fileName: "notes.pdf", elements: doc(20), llm: model() });
    // Three failures in a row stop the calls (up to the calls already in flight).
    expect(chat.requests.length).toBeLessThanOrEqual(6);
    expect(result.llmPages).toBe(0);
    expect(result.models).toEqual([LOCAL_ENRICHMENT_MODEL]);
    expect(result.pages.every((p) => p.model === LOCAL_ENRICHMENT_MODEL && p.keywords.length > 0)).toBe(true);
    expect(result.warnings[0]).toMatch(/local extractor for 20 of 20 pages/);
    expect(result.documentAnnotation).toBeTruthy();
  });

  it("treats a reply that is not the asked JSON as a failure, and accepts one in a code fence", async () => {
    chat.replyWith((body) =>
      /espresso/.test(quotedText(body))
        ? "Sure! Here is the summary: espresso."
        : "```json\n" + JSON.stringify({ summary: "Fenced.", keywords: "granite, quarry", topics: [] }) + "\n```",
    );
    const result = await enrichDocument({ fileName: "notes.pdf", elements: doc(2), llm: model() });
    expect(result.pages[0]).toMatchObject({
      summary: "Fenced.",
      keywords: ["granite", "quarry"],
      model: "fake-gpt-mini",
    });
    expect(result.pages[1]?.model).toBe(LOCAL_ENRICHMENT_MODEL);
    expect(result.warnings[0]).toMatch(/did not reply with JSON/);
  });

  it("falls back when the model server cannot be reached", async () => {
    const unreachable = { baseUrl: "http://127.0.0.1:9/v1", model: "nowhere" };
    const result = await enrichDocument({ fileName: "notes.txt", elements: doc(1), llm: unreachable });
    expect(result.pages[0]?.model).toBe(LOCAL_ENRICHMENT_MODEL);
    expect(result.warnings[0]).toMatch(/did not answer/);
  });
});

describe("enrichment without a model", () => {
  it("uses the local extractor and names it", async () => {
    const result = await enrichDocument({ fileName: "notes.txt", elements: doc(2), llm: null });
    expect(result.models).toEqual([LOCAL_ENRICHMENT_MODEL]);
    expect(result.pages.every((p) => p.summary && p.keywords.length > 0 && p.topics.length > 0)).toBe(true);
    expect(result.documentAnnotation).toBeTruthy();
    expect(chat.requests).toHaveLength(0);
  });
});
