import { Ajv } from "ajv";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { replyFor, startFakeChatServer, type ChatRequestBody, type FakeChatServer } from "../testing/fake-chat-server";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { parseSseFrames } from "../http/sse";
import {
  AnswerEvent as AnswerEventSchema,
  AskResponse as AskResponseSchema,
  type AnswerEvent,
  type AskResponse,
} from "../public-api/v1/answers/responses.schema";

/**
 * POST /ask-sources and /run-extraction over real HTTP against the running app, with a local OpenAI-compatible
 * stand-in as the chat model (and as the reranker), whose request log shows what each request cost.
 */

let quarry: QuarryProcess;
let chat: FakeChatServer;
let api: ReturnType<typeof apiClient>;
const ids: Record<string, string> = {};

const bridgePdf = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = [
    ["Harbour Bridge history", "The Harbour Bridge opened to traffic in March 1932 after eight years of work."],
    ["Harbour Bridge paint", "The Harbour Bridge is painted grey and each coat needs thirty thousand litres of paint."],
  ];
  for (const [title, line] of pages) {
    const page = doc.addPage([612, 792]);
    page.drawText(title!, { x: 72, y: 720, size: 20, font });
    page.drawText(line!, { x: 72, y: 680, size: 11, font });
  }
  return Buffer.from(await doc.save());
};

const RIVERS =
  "# Rivers of the south west\n\nThe river Tamar forms most of the border between Devon and Cornwall. " +
  "The Tamar is sixty one miles long and reaches the sea at Plymouth Sound.\n";
const FERRIES =
  "Ferry timetable notes.\n\nThe Torpoint ferry crosses the Hamoaze on chains and runs every ten minutes at peak times.\n";

const ask = async (body: Record<string, unknown>) => {
  const res = await api.post("/ask-sources", body);
  return { status: res.status, body: (await res.json()) as AskResponse & { detail?: string } };
};
const extract = async (body: Record<string, unknown>) => {
  const res = await api.post("/run-extraction", body);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { detail?: string } };
};

const chatCalls = (pattern?: RegExp) =>
  chat.requests.filter((r) => !pattern || r.messages.some((m) => m.role === "system" && pattern.test(m.content)));
const answerCalls = () => chatCalls(/numbered context passages you are given/);

beforeAll(async () => {
  chat = await startFakeChatServer();
  quarry = await startQuarry({
    env: {
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: chat.baseUrl,
      LLM_MODEL: "stand-in-chat",
      LLM_API_KEY: "sk-test",
      RERANK_BASE_URL: chat.baseUrl,
      RERANK_MODEL: "stand-in-rerank",
    },
  });
  api = apiClient(quarry);
  for (const [name, content] of [
    ["bridge.pdf", await bridgePdf()],
    ["rivers.md", RIVERS],
    ["ferries.txt", FERRIES],
  ] as const) {
    const res = await api.upload(name, content, { enrichment: "none" });
    const { build_id } = (await res.json()) as { build_id: string };
    const build = (await api.waitForBuild(build_id)) as { status: string; file_id?: string };
    expect(build.status).toBe("Completed");
  }
  const list = (await (await api.get("/")).json()) as { file_id: string; file_name: string }[];
  for (const s of list) ids[s.file_name] = s.file_id;
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
  await chat?.close();
});

beforeEach(() => {
  chat.requests.length = 0;
  chat.reranks.length = 0;
  chat.failWith(null);
  chat.replyWith(null);
});

describe("ask-sources with a chat model", () => {
  it("answers with citations that point at the right file, page and element, and names the model", async () => {
    const { status, body } = await ask({
      question: "When did the Harbour Bridge open to traffic?",
      thinking_level: "fast",
    });
    expect(status).toBe(200);
    expect(AskResponseSchema.parse(body)).toBeTruthy();
    expect(body.answer).toMatch(/opened to traffic in March 1932.*\[\d\]/);
    expect(body.model).toBe("stand-in-chat");
    expect(body.conversation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.structured_output).toBeNull();
    expect(body.raw_json).toBeNull();
    expect(body.elapsed_s).toBeGreaterThan(0);
    expect(body.usage!.tokens_in).toBeGreaterThan(0);
    expect(body.usage!.tokens_out).toBeGreaterThan(0);
    const [citation] = body.citations!;
    expect(body.citations).toHaveLength(1);
    expect(citation).toMatchObject({
      file_id: ids["bridge.pdf"],
      file_name: "bridge.pdf",
      page_number: 1,
      image_base64: null,
    });
    expect(citation!.text_preview).toContain("March 1932");
    const elements = (await (await api.get(`/get-elements?file_id=${ids["bridge.pdf"]}&page_numbers=1`)).json()) as {
      items: { element_id: string }[];
    };
    expect(elements.items.map((e) => e.element_id)).toContain(citation!.element_id);
  });

  it("spends the effort each thinking level promises", async () => {
    const question = "How long is the river Tamar?";
    const effort = async (level?: string) => {
      chat.requests.length = 0;
      chat.reranks.length = 0;
      const { status } = await ask({ question, ...(level ? { thinking_level: level } : {}) });
      expect(status).toBe(200);
      return {
        chat: chat.requests.length,
        expand: chatCalls(/search queries/).length,
        check: chatCalls(/enough to answer/).length,
        reranks: chat.reranks.length,
      };
    };
    expect(await effort("fast")).toEqual({ chat: 1, expand: 0, check: 0, reranks: 0 });
    expect(await effort("balanced")).toEqual({ chat: 1, expand: 0, check: 0, reranks: 1 });
    // The stand-in rewrites the question into itself and its keywords: two reranked searches.
    expect(await effort("accurate")).toEqual({ chat: 2, expand: 1, check: 0, reranks: 2 });
    expect(await effort("max")).toEqual({ chat: 3, expand: 1, check: 1, reranks: 2 });
    // Default: accurate.
    expect(await effort()).toEqual({ chat: 2, expand: 1, check: 0, reranks: 2 });
  });

  it("max searches again for what the first context lacks", async () => {
    const { body } = await ask({
      question: "When did the Harbour Bridge open and what does the Torpoint ferry cross?",
      file_ids: [ids["bridge.pdf"], ids["ferries.txt"]],
      thinking_level: "max",
    });
    expect(body.answer).toBeTruthy();
    const check = chatCalls(/enough to answer/);
    expect(check).toHaveLength(1);
    // Whether the first searches sufficed decides whether a third reranked search ran.
    const verdict = JSON.parse(replyFor(check[0]!)) as { sufficient: boolean };
    expect(chat.reranks.length).toBe(verdict.sufficient ? 2 : 3);
  });

  it("remembers the conversation: a follow-up is rewritten with the history, and reset clears it", async () => {
    const first = await ask({ question: "When did the Harbour Bridge open?", thinking_level: "fast" });
    const conversation_id = first.body.conversation_id;
    chat.requests.length = 0;
    const second = await ask({ question: "What colour is it painted?", conversation_id, thinking_level: "fast" });
    expect(second.body.conversation_id).toBe(conversation_id);
    const rewrite = chatCalls(/standalone search query/);
    expect(rewrite).toHaveLength(1);
    expect(rewrite[0]!.messages.at(-1)!.content).toContain("user: When did the Harbour Bridge open?");
    const answerRequest = answerCalls()[0]!;
    expect(answerRequest.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(answerRequest.messages[2]!.content).toBe(first.body.answer);
    expect(second.body.usage!.om_tokens_in).toBeGreaterThan(0);
    expect(second.body.answer).toContain("painted grey");
    expect(second.body.citations![0]).toMatchObject({ file_name: "bridge.pdf", page_number: 2 });

    chat.requests.length = 0;
    const third = await ask({
      question: "What colour is it painted?",
      conversation_id,
      reset: true,
      thinking_level: "fast",
    });
    expect(third.body.conversation_id).toBe(conversation_id);
    expect(chatCalls(/standalone search query/)).toHaveLength(0);
    expect(answerCalls()[0]!.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(third.body.usage!.om_tokens_in).toBe(0);

    // An unknown id starts a conversation under that id.
    const fresh = await ask({
      question: "How long is the Tamar?",
      conversation_id: "my-own-id",
      thinking_level: "fast",
    });
    expect(fresh.body.conversation_id).toBe("my-own-id");
  });

  it("keeps to the scope given by file_ids or file_names", async () => {
    const byId = await ask({
      question: "What does the ferry cross, and how long is the Tamar?",
      file_ids: [ids["rivers.md"]],
      thinking_level: "balanced",
    });
    expect(byId.body.citations!.length).toBeGreaterThan(0);
    expect(byId.body.citations!.every((c) => c.file_id === ids["rivers.md"])).toBe(true);
    const byName = await ask({
      question: "What does the ferry cross?",
      file_names: ["ferries.txt"],
      thinking_level: "fast",
    });
    expect(byName.body.citations!.every((c) => c.file_name === "ferries.txt")).toBe(true);
    const context = answerCalls().at(-1)!.messages.at(-1)!.content;
    expect(context).not.toContain("Tamar");
    expect(await ask({ question: "x", file_ids: ["6f1c9d2e-0000-4000-8000-000000000000"] })).toMatchObject({
      status: 404,
      body: { detail: "Source not found" },
    });
    expect(await ask({ question: "x", file_names: ["nope.pdf"] })).toMatchObject({
      status: 404,
      body: { detail: "Source not found" },
    });
  });

  it("removes markers that point at nothing, writes rich markers, and attaches page images on request", async () => {
    chat.replyWith((b: ChatRequestBody) =>
      b.stream || b.response_format ? null : "It opened in 1932 [1], and [9] was never given.",
    );
    const plain = await ask({
      question: "When did the Harbour Bridge open?",
      thinking_level: "fast",
      file_ids: [ids["bridge.pdf"]],
    });
    expect(plain.body.answer).toBe("It opened in 1932 [1], and was never given.");
    expect(plain.body.citations!.map((c) => c.index)).toEqual([1]);

    const rich = await ask({
      question: "When did the Harbour Bridge open?",
      thinking_level: "fast",
      file_ids: [ids["bridge.pdf"]],
      include_citation_markup: true,
      include_citation_images: true,
    });
    const c = rich.body.citations![0]!;
    expect(rich.body.answer).toContain(`[1](${ids["bridge.pdf"]}|p${c.page_number}|e${c.element_id}|fbridge.pdf)`);
    expect(Buffer.from(c.image_base64!, "base64").subarray(1, 4).toString()).toBe("PNG");
  });

  it("gives structured output valid against the schema", async () => {
    const output_schema = {
      type: "object",
      properties: { opened: { type: "string", description: "when it opened" }, year: { type: "integer" } },
      required: ["opened", "year"],
    };
    const { status, body } = await ask({
      question: "When did the Harbour Bridge open?",
      output_schema,
      file_ids: [ids["bridge.pdf"]],
    });
    expect(status).toBe(200);
    expect(body.answer).toBe("Structured output generated");
    expect(new Ajv().validate(output_schema, body.structured_output)).toBe(true);
    expect(body.structured_output!.year).toBe(1932);
    expect(JSON.parse(body.raw_json!)).toEqual(body.structured_output);
  });

  it("streams tokens, then citations as markers complete, then done with the whole response", async () => {
    const res = await api.post("/ask-sources", {
      question: "When did the Harbour Bridge open?",
      stream: true,
      thinking_level: "fast",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = parseSseFrames(await res.text()).map((e) => AnswerEventSchema.parse(e));
    const types = events.map((e) => e.type);
    expect(types.at(-1)).toBe("done");
    expect(types.filter((t) => t === "token").length).toBeGreaterThan(3);
    expect(types.indexOf("citation")).toBeGreaterThan(types.indexOf("token"));
    const done = events.at(-1) as Extract<AnswerEvent, { type: "done" }>;
    const response = AskResponseSchema.parse(done.response);
    const text = events.flatMap((e) => (e.type === "token" ? [e.text] : [])).join("");
    expect(text).toBe(response.answer);
    const cited = events.flatMap((e) => (e.type === "citation" ? [e.citation.index] : []));
    expect(cited).toEqual(response.citations!.map((c) => c.index));
    expect(chat.requests[0]!.stream).toBe(true);
  });

  it("a streamed request that is refused answers with a status, not a stream; a model failure mid-way is an error event", async () => {
    const bad = await api.post("/ask-sources", { question: "x", stream: true, thinking_level: "deep" });
    expect(bad.status).toBe(400);
    chat.failWith((b) => (b.stream ? 400 : null));
    const res = await api.post("/ask-sources", { question: "When did it open?", stream: true, thinking_level: "fast" });
    const events = parseSseFrames(await res.text()) as AnswerEvent[];
    expect(events.at(-1)).toEqual({ type: "error", detail: "Failed to ask sources" });
  });

  it("retries a 429 from the model and fails at once on a 400", async () => {
    let calls = 0;
    chat.failWith(() => (++calls <= 2 ? 429 : null));
    const retried = await ask({ question: "How long is the Tamar?", thinking_level: "fast" });
    expect(retried.status).toBe(200);
    expect(chat.requests).toHaveLength(3);

    chat.requests.length = 0;
    chat.failWith(() => 400);
    expect(await ask({ question: "How long is the Tamar?", thinking_level: "fast" })).toEqual({
      status: 500,
      body: { detail: "Failed to ask sources" },
    });
    expect(chat.requests).toHaveLength(1);
  });

  it("answers every error of the contract", async () => {
    expect(await ask({})).toEqual({ status: 400, body: { detail: "Invalid input: question is required" } });
    expect(await ask({ question: "   " })).toEqual({
      status: 400,
      body: { detail: "Invalid input: question is required" },
    });
    expect(await ask({ question: "x", thinking_level: "deep" })).toEqual({
      status: 400,
      body: { detail: "Invalid thinking_level 'deep'. Valid values: fast, balanced, accurate, max" },
    });
    const badSchema = await ask({ question: "x", output_schema: { type: "object", properties: { a: { anyOf: [] } } } });
    expect(badSchema.status).toBe(400);
    expect(badSchema.body.detail).toMatch(/^Invalid output_schema: 'anyOf' is not supported/);
    expect(chat.requests).toHaveLength(0);
  });
});

describe("run-extraction with a chat model", () => {
  const schema = {
    type: "object",
    properties: {
      river: { type: "string" },
      length_miles: { type: ["integer", "null"] },
      counties: { type: "array", items: { type: "string" } },
    },
    required: ["river", "counties"],
  };

  it("extracts an object valid against the schema from the named sources", async () => {
    const { status, body } = await extract({
      file_ids: [ids["rivers.md"]],
      user_instruction: "Describe the river",
      output_schema: schema,
    });
    expect(status).toBe(200);
    expect(body.file_ids).toEqual([ids["rivers.md"]]);
    expect(body.file_names).toEqual(["rivers.md"]);
    expect(new Ajv().validate(schema, body.structured_output)).toBe(true);
    expect(JSON.parse(body.raw_json as string)).toEqual(body.structured_output);
    expect(chat.requests[0]!.messages.at(-1)!.content).toContain("The river Tamar forms");
    const byName = await extract({
      file_names: ["rivers.md"],
      user_instruction: "Describe the river",
      output_schema: schema,
    });
    expect(byName.body.file_ids).toEqual([ids["rivers.md"]]);
  });

  it("repairs a reply that is almost JSON, and takes one repair turn with the validation errors", async () => {
    chat.replyWith(() => '```json\n{"river": "Tamar", "counties": ["Devon", "Cornwall",],}\n```');
    const repaired = await extract({
      file_ids: [ids["rivers.md"]],
      user_instruction: "Describe the river",
      output_schema: schema,
    });
    expect(repaired.body.structured_output).toEqual({ river: "Tamar", counties: ["Devon", "Cornwall"] });
    expect(chat.requests).toHaveLength(1);

    chat.requests.length = 0;
    let turn = 0;
    chat.replyWith(() => (++turn === 1 ? '{"river": 7}' : null));
    const second = await extract({
      file_ids: [ids["rivers.md"]],
      user_instruction: "Describe the river",
      output_schema: schema,
    });
    expect(chat.requests).toHaveLength(2);
    const repairPrompt = chat.requests[1]!.messages.at(-1)!.content;
    expect(repairPrompt).toMatch(/must have required property 'counties'/);
    expect(repairPrompt).toMatch(/\/river must be string/);
    expect(chat.requests[1]!.messages.at(-2)).toEqual({ role: "assistant", content: '{"river": 7}' });
    expect(new Ajv().validate(schema, second.body.structured_output)).toBe(true);

    chat.replyWith(() => '{"river": 7}');
    const failed = await extract({
      file_ids: [ids["rivers.md"]],
      user_instruction: "Describe the river",
      output_schema: schema,
    });
    expect(failed).toEqual({
      status: 200,
      body: expect.objectContaining({ structured_output: null, raw_json: '{"river": 7}' }) as unknown,
    });
  });

  it("reports a reply cut at the token limit as a 500 with a clear detail", async () => {
    chat.replyWith(() => ({ content: '{"river": "Tam', finishReason: "length" }));
    const { status, body } = await extract({
      file_ids: [ids["rivers.md"]],
      user_instruction: "Describe the river",
      output_schema: schema,
    });
    expect(status).toBe(500);
    expect(body.detail).toMatch(/cut off at its output token limit/);
  });

  it("answers every error of the contract, checking the schema before any model call", async () => {
    const base = { file_ids: [ids["rivers.md"]], user_instruction: "Describe", output_schema: schema };
    expect(await extract({ ...base, file_ids: [] })).toEqual({
      status: 400,
      body: { detail: "Invalid input: file_ids or file_names is required" },
    });
    expect(await extract({ user_instruction: "x", output_schema: schema })).toEqual({
      status: 400,
      body: { detail: "Invalid input: file_ids or file_names is required" },
    });
    expect(await extract({ ...base, user_instruction: " " })).toEqual({
      status: 400,
      body: { detail: "Invalid input: user_instruction is required" },
    });
    const invalid: [unknown, RegExp][] = [
      [undefined, /must be a JSON object/],
      [{ type: "array", items: { type: "string" } }, /root must have type "object"/],
      [{ type: "object", properties: { a: { type: ["string", "integer"] } } }, /type unions are not supported/],
      [{ type: "object", properties: { a: { $ref: "#/x" } } }, /'\$ref' is not supported/],
      [{ type: "object", properties: { a: { type: "string", pattern: "x" } } }, /unsupported keyword 'pattern'/],
      [{ type: "object", properties: { a: { type: "integer", enum: ["1"] } } }, /enum is allowed on strings only/],
      [{ type: "object", properties: {}, required: ["b"] }, /required names 'b'/],
      [
        {
          type: "object",
          properties: {
            a: {
              type: "object",
              properties: {
                b: {
                  type: "object",
                  properties: {
                    c: { type: "object", properties: { d: { type: "object", properties: { e: { type: "string" } } } } },
                  },
                },
              },
            },
          },
        },
        /nesting deeper than 5 levels/,
      ],
    ];
    for (const [output_schema, reason] of invalid) {
      const { status, body } = await extract({ ...base, output_schema });
      expect(status).toBe(400);
      expect(body.detail).toMatch(/^Invalid output_schema: /);
      expect(body.detail).toMatch(reason);
    }
    expect(chat.requests).toHaveLength(0);
    expect(await extract({ ...base, file_ids: ["6f1c9d2e-0000-4000-8000-000000000000"] })).toEqual({
      status: 404,
      body: { detail: "Source not found" },
    });
    chat.failWith(() => 400);
    expect(await extract(base)).toEqual({ status: 500, body: { detail: "Failed to run extraction" } });
    expect(chat.requests).toHaveLength(1);
  });
});
