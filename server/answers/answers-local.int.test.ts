import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfDoc, referencedPdf } from "../testing/fixtures";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { parseSseFrames } from "../http/sse";
import {
  AnswerEvent as AnswerEventSchema,
  AskResponse as AskResponseSchema,
  type AskResponse,
} from "../public-api/v1/answers/responses.schema";
import { NOTHING_FOUND } from "./extractive";

/**
 * The embedded default, over real HTTP: no model configured, so chat is answered by the local extractive answerer
 * and extraction is refused naming the setting. Every cited sentence must be found on the cited page of the cited
 * source (its elements as GET /get-elements returns them) — on generated documents always, and on real corpus
 * documents when ../shared/corpus is there.
 */

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus");

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;
const ids: Record<string, string> = {};

const normal = (text: string) => text.replace(/\s+/g, " ").trim();
/** How a quoted sentence shows a source's own bracketed references: `[2]` as `(2)`, `[3, 4]` as `(3, 4)`. */
const referencesAsText = (text: string) => text.replace(/\[(\s*\d[\d\s,;\u2013-]*)\]/g, "($1)");

const ask = async (body: Record<string, unknown>) => {
  const res = await api.post("/ask-sources", body);
  return { status: res.status, body: (await res.json()) as AskResponse & { detail?: string } };
};

const ingest = async (name: string, content: Buffer | string) => {
  const res = await api.upload(name, content, { enrichment: "none" });
  expect(res.status).toBe(200);
  const { build_id } = (await res.json()) as { build_id: string };
  const build = (await api.waitForBuild(build_id, 600_000)) as { status: string; error: string | null };
  expect(build.status, build.error ?? "").toBe("Completed");
};

/**
 * Each `sentence [N]` of the answer is on citation N's page of its source (a quoted sentence writes the source's
 * own `[2]` as `(2)`), and every piece of text before a marker is a whole sentence: a marker inside a quote, such as
 * a literature reference left as `[2]`, would leave a stub like "." behind.
 */
const expectSentencesInCitedPages = async (answer: AskResponse) => {
  const pairs = [...answer.answer.matchAll(/(.+?)\s\[(\d+)\]\s*/g)].map((m) => ({ sentence: m[1]!, n: Number(m[2]) }));
  expect(pairs.length).toBeGreaterThan(0);
  expect(pairs.map((p) => `[${p.n}]`).join("")).toBe(answer.answer.match(/\[\d+\]/g)!.join(""));
  for (const { sentence, n } of pairs) {
    expect(sentence.trim().length, answer.answer).toBeGreaterThanOrEqual(12);
    const citation = answer.citations!.find((c) => c.index === n)!;
    expect(citation).toBeTruthy();
    const page = citation.page_number === null ? "" : `&page_numbers=${citation.page_number}`;
    const items: { text: string }[] = [];
    for (let n = 1; ; n++) {
      const res = await api.get(`/get-elements?file_id=${citation.file_id}${page}&page_size=100&page=${n}`);
      const body = (await res.json()) as { items: { text: string }[]; total_pages: number };
      items.push(...body.items);
      if (n >= body.total_pages) break;
    }
    expect(normal(referencesAsText(items.map((e) => e.text).join("\n")))).toContain(normal(sentence));
  }
};

beforeAll(async () => {
  quarry = await startQuarry();
  api = apiClient(quarry);
  await ingest(
    "granite.md",
    "# Granite\n\nGranite is an igneous rock made mostly of quartz, feldspar and mica. It forms when magma " +
      "cools slowly deep underground.\n\n## Quarrying\n\nGranite blocks are cut with diamond wire saws. The saw " +
      "wire is cooled with water.\n",
  );
  await ingest("sandstone.pdf", await pdfDoc({ pages: 2, title: "Sandstone Report" }));
  const list = (await (await api.get("/")).json()) as { file_id: string; file_name: string }[];
  for (const s of list) ids[s.file_name] = s.file_id;
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
});

describe("ask-sources without a model", () => {
  it("answers with sentences of the sources, each carrying the marker of the chunk it came from", async () => {
    for (const thinking_level of ["fast", "balanced", "accurate", "max"]) {
      const { status, body } = await ask({ question: "How are granite blocks cut?", thinking_level });
      expect(status).toBe(200);
      AskResponseSchema.parse(body);
      expect(body.model).toBe("quarry-extractive");
      expect(body.answer).toContain("Granite blocks are cut with diamond wire saws.");
      expect(body.usage).toEqual({
        tokens_in: 0,
        tokens_out: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        om_tokens_in: 0,
        om_tokens_out: 0,
      });
      await expectSentencesInCitedPages(body);
    }
    const pdf = await ask({
      question: "What do quarry operators test each block for?",
      file_ids: [ids["sandstone.pdf"]],
    });
    expect(pdf.body.citations!.every((c) => c.file_name === "sandstone.pdf" && c.page_number !== null)).toBe(true);
    await expectSentencesInCitedPages(pdf.body);
  });

  it("says it found nothing when the sources do not cover the question", async () => {
    const { body } = await ask({ question: "Who won the 1998 football world cup final?" });
    expect(body).toMatchObject({ answer: NOTHING_FOUND, citations: [], model: "quarry-extractive" });
  });

  it("streams the local answer and continues a conversation", async () => {
    const res = await api.post("/ask-sources", { question: "What is granite made of?", stream: true });
    const events = parseSseFrames(await res.text()).map((e) => AnswerEventSchema.parse(e));
    expect(events.at(-1)!.type).toBe("done");
    const done = AskResponseSchema.parse((events.at(-1) as { response: unknown }).response);
    expect(events.flatMap((e) => (e.type === "token" ? [e.text] : [])).join("")).toBe(done.answer);
    expect(done.answer).toContain("quartz, feldspar and mica");
    const follow = await ask({ question: "How does it form?", conversation_id: done.conversation_id });
    expect(follow.body.conversation_id).toBe(done.conversation_id);
    expect(follow.body.answer).toContain("magma cools slowly");
  });

  it("refuses what needs a model, naming the setting", async () => {
    const schema = { type: "object", properties: { rock: { type: "string" } } };
    const asked = await ask({ question: "What is granite?", output_schema: schema });
    expect(asked.status).toBe(400);
    expect(asked.body.detail).toMatch(
      /^output_schema needs a chat model; add a provider at \/teams\/.+\/providers or configure LLM_PROVIDER=openai/,
    );
    const res = await api.post("/run-extraction", {
      file_ids: [ids["granite.md"]],
      user_instruction: "Describe",
      output_schema: schema,
    });
    expect(res.status).toBe(400);
    // The dashboard page where an admin adds one, then the install-wide settings.
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      /^Extraction needs a chat model; add a provider at \/teams\/[0-9a-f-]{36}\/providers or configure LLM_PROVIDER=openai with LLM_BASE_URL, LLM_API_KEY and LLM_MODEL$/,
    );
  });
});

describe("sources full of literature references", () => {
  it(
    "cites only its own markers: every citation's file and page hold the cited sentence",
    { timeout: 600_000 },
    async () => {
      await ingest("referenced-paper.pdf", await referencedPdf());
      await ingest(
        "river-deltas.txt",
        "River deltas grow where a river drops its sediment faster than waves remove it [1]. The Nile delta lost " +
          "land after the Aswan dam held back its silt [2, 3]. Subsiding deltas flood more often as the sea rises " +
          "[4–6]. Mangroves on delta coasts trap mud and protect villages from storm surges [7][8].\n",
      );
      const list = (await (await api.get("/")).json()) as { file_id: string; file_name: string }[];
      const paper = list.find((s) => s.file_name === "referenced-paper.pdf")!.file_id;
      const questions: [string, number][] = [
        ["Albendazole is used to treat lymphatic filariasis.", 1],
        ["Which neglected diseases saw reductions in prevalence?", 1],
        ["How are granite blocks split from the quarry face?", 2],
        ["Why do corals bleach?", 3],
        ["Why are volcanic soils fertile?", 4],
      ];
      for (const [question, page] of questions) {
        for (const scope of [{}, { file_ids: [paper] }]) {
          for (const thinking_level of ["fast", "accurate"]) {
            const { body } = await ask({ question, thinking_level, ...scope });
            expect(body.answer, question).not.toBe(NOTHING_FOUND);
            expect(body.answer, question).not.toMatch(/\[\d+\]\./);
            await expectSentencesInCitedPages(body);
            expect(
              body.citations!.some((c) => c.file_id === paper && c.page_number === page),
              `${question}: ${body.answer}`,
            ).toBe(true);
          }
        }
      }
      // The answer quotes the sentence with its reference kept visible as text.
      const { body } = await ask({ question: "Albendazole is used to treat lymphatic filariasis.", file_ids: [paper] });
      expect(body.answer).toMatch(/ivermectin interrupts the transmission of lymphatic filariasis \(3, 4\)\. \[\d\]/);
      const streamed = await api.post("/ask-sources", { question: "Why do corals bleach?", stream: true });
      const events = parseSseFrames(await streamed.text()).map((e) => AnswerEventSchema.parse(e));
      const done = AskResponseSchema.parse((events.at(-1) as { response: unknown }).response);
      expect(events.flatMap((e) => (e.type === "token" ? [e.text] : [])).join("")).toBe(done.answer);
      expect(events.flatMap((e) => (e.type === "citation" ? [e.citation.index] : []))).toEqual(
        done.citations!.map((c) => c.index),
      );
      await expectSentencesInCitedPages(done);
    },
  );
});

describe.runIf(existsSync(CORPUS))("the local answerer on corpus documents", () => {
  const questions: [string, string][] = [
    ["dpr-paper-multi-column-13p.pdf", "How does the dense passage retriever encode questions and passages?"],
    ["dpr-paper-multi-column-13p.pdf", "Which datasets are used to evaluate open-domain question answering?"],
    ["UDHR_first_article_all.txt", "How are all human beings born?"],
    ["book-war-and-peace-1p.txt", "What did Anna Pavlovna say about Genoa and Lucca?"],
  ];

  it("cites, for every sentence, a page of a source that holds that sentence", { timeout: 900_000 }, async () => {
    for (const name of new Set(questions.map(([n]) => n))) await ingest(name, readFileSync(path.join(CORPUS, name)));
    const list = (await (await api.get("/")).json()) as { file_id: string; file_name: string }[];
    for (const [name, question] of questions) {
      const fileId = list.find((s) => s.file_name === name)!.file_id;
      const { body } = await ask({ question, file_ids: [fileId] });
      expect(body.answer, question).not.toBe(NOTHING_FOUND);
      await expectSentencesInCitedPages(body);
    }
  });
});
