import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeChatServer, type FakeChatServer } from "../../testing/fake-chat-server";
import { ProviderError } from "../errors";
import { openAiCompatibleModel } from "./openai-compatible";

let chat: FakeChatServer;
beforeAll(async () => (chat = await startFakeChatServer()));
afterAll(() => chat.close());
beforeEach(() => {
  chat.requests.length = 0;
  chat.failWith(null);
  chat.replyWith(null);
  chat.setStreamDelay(0, 0);
});

const model = (nativeJsonSchema = false, timeoutMs?: number) =>
  openAiCompatibleModel({
    id: "stand-in-1",
    provider: "openai-compatible",
    baseUrl: chat.baseUrl,
    apiKey: "sk-test",
    nativeJsonSchema,
    timeoutMs,
  });

const schema = {
  type: "object",
  properties: { title: { type: "string" }, year: { type: "integer" } },
  required: ["title"],
};
const messages = [
  {
    role: "user" as const,
    content:
      "Context passages:\n\n[1] (a.pdf, page 2)\nThe bridge opened in 1932. It is long.\n\nQuestion: When did the bridge open?",
  },
];

describe("OpenAI-compatible chat client", () => {
  it("answers with the text, the server's usage and the finish reason", async () => {
    const result = await model().generate({ messages });
    expect(result.text).toBe("The bridge opened in 1932. [1]");
    expect(result.usage.tokensIn).toBeGreaterThan(10);
    expect(result.usage.tokensOut).toBeGreaterThan(0);
    expect(result.finishReason).toBe("stop");
    expect(result.model).toBe("stand-in-1");
  });

  it("streams text deltas and ends with one finish part carrying usage", async () => {
    const parts = [];
    for await (const part of model().stream({ messages })) parts.push(part);
    const texts = parts.filter((p) => p.type === "text");
    expect(texts.length).toBeGreaterThan(2);
    expect(texts.map((p) => p.text).join("")).toBe("The bridge opened in 1932. [1]");
    const last = parts.at(-1)!;
    expect(last.type).toBe("finish");
    expect(last.type === "finish" && last.usage.tokensOut).toBeGreaterThan(0);
    expect(chat.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("sends json_schema natively when the model has it, else JSON mode with the schema in the prompt", async () => {
    const native = await model(true).generate({ messages, responseFormat: { type: "json_schema", schema } });
    expect(chat.requests[0]!.response_format).toMatchObject({ type: "json_schema", json_schema: { schema } });
    expect(JSON.parse(native.text)).toEqual({ title: "The bridge opened in 1932.", year: 1932 });
    const prompted = await model(false).generate({ messages, responseFormat: { type: "json_schema", schema } });
    expect(chat.requests[1]!.response_format).toEqual({ type: "json_object" });
    expect(chat.requests[1]!.messages[0]!.content).toContain(JSON.stringify(schema));
    expect(JSON.parse(prompted.text)).toEqual(JSON.parse(native.text));
  });

  it("retries a 429 and a 503, and gives up on a 400 at once", async () => {
    let calls = 0;
    chat.failWith(() => (++calls === 1 ? 429 : calls === 2 ? 503 : null));
    const result = await model().generate({ messages });
    expect(result.text).toContain("[1]");
    expect(chat.requests).toHaveLength(3);

    chat.requests.length = 0;
    chat.failWith(() => 400);
    const error = await model()
      .generate({ messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: false, status: 400 });
    expect((error as Error).message).toMatch(/HTTP 400.*unsupported parameter/);
    expect(chat.requests).toHaveLength(1);
  });

  it("a 429 that persists ends as a retryable error after the retries", async () => {
    chat.failWith(() => 429);
    const error = await model()
      .generate({ messages, retries: 1 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true, status: 429 });
    expect(chat.requests).toHaveLength(2);
  });

  it("a server that does not answer in time is a retryable error", async () => {
    chat.setStreamDelay(2_000, 0);
    const error = await (async () => {
      for await (const part of model(false, 200).stream({ messages, retries: 0 })) void part;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: true, status: null });
  });

  it("reports a reply cut at the token limit", async () => {
    chat.replyWith(() => ({ content: '{"title": "The bri', finishReason: "length" }));
    const result = await model().generate({ messages, maxTokens: 5 });
    expect(result.finishReason).toBe("length");
    expect(chat.requests[0]!.max_tokens).toBe(5);
  });
});
