import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { openAiCompatibleModel } from "./chat/openai-compatible";
import { createHttpReranker } from "./rerank/http-reranker";
import { setModelCallSink, withModelUsage, type ChatSpend, type ModelCallReport, type UsageContext } from "./usage";
import { reportedUsage } from "./usage-reported";

/**
 * The clients record each call once, with the context of the action that made it: against a local stand-in, with
 * a sink in place of the database so what would be written can be read here.
 */

let chat: FakeChatServer;
const seen: { report: ModelCallReport; context: UsageContext | undefined }[] = [];

beforeAll(async () => {
  chat = await startFakeChatServer();
  setModelCallSink((report, context) => seen.push({ report, context }));
});
afterAll(() => chat.close());
beforeEach(() => {
  seen.length = 0;
  chat.failWith(null);
});

const live = () =>
  openAiCompatibleModel({
    id: "stand-in-1",
    provider: "openai-compatible",
    baseUrl: chat.baseUrl,
    nativeJsonSchema: false,
  });
const messages = [{ role: "user" as const, content: "Say something about bridges, please." }];
const context: UsageContext = { projectId: "00000000-0000-4000-8000-000000000001", cause: "ask" };

describe("model call recording", () => {
  it("records a reply with the server's usage, under the action's context", async () => {
    const result = await withModelUsage(context, () => live().generate({ messages }));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.context).toMatchObject(context);
    expect(seen[0]!.report).toMatchObject({
      capability: "chat",
      provider: "openai-compatible",
      model: "stand-in-1",
      tokensIn: result.usage.tokensIn,
      tokensOut: result.usage.tokensOut,
      estimated: false,
      ok: true,
    });
    expect(seen[0]!.report.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("records one failed call for all its retries, with no tokens and the error", async () => {
    chat.failWith(() => 400);
    await expect(withModelUsage(context, () => live().generate({ messages }))).rejects.toThrow(/HTTP 400/);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.report).toMatchObject({ ok: false, tokensIn: 0, tokensOut: 0, estimated: false });
    expect(seen[0]!.report.error).toMatch(/HTTP 400/);
  });

  it("records a stream its reader left early, with estimated tokens for what was generated", async () => {
    const spend: ChatSpend = { calls: 0, tokensIn: 0, tokensOut: 0 };
    await withModelUsage({ ...context, subject: "index-1", spend }, async () => {
      for await (const part of live().stream({ messages })) {
        if (part.type === "text") break;
      }
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.report).toMatchObject({ ok: false, estimated: true, error: "the reader stopped before the end" });
    expect(seen[0]!.report.tokensIn).toBeGreaterThan(0);
    // The context's running count is what a build budget reads.
    expect(spend).toEqual({ calls: 1, tokensIn: seen[0]!.report.tokensIn, tokensOut: seen[0]!.report.tokensOut });
    expect(seen[0]!.context).toMatchObject({ subject: "index-1" });
  });

  it("lets an inner action name its own cause, keeping the outer subject", async () => {
    await withModelUsage({ ...context, cause: "graph_build", subject: "index-2" }, () =>
      withModelUsage({ projectId: context.projectId, cause: "flow_build" }, () =>
        createHttpReranker({ baseUrl: chat.baseUrl, model: "stand-in-rerank" }).rerank("bridge", [
          { text: "A bridge." },
        ]),
      ),
    );
    expect(seen[0]!.context).toMatchObject({ cause: "flow_build", subject: "index-2" });
    // The stand-in's /rerank reports no usage: the tokens are estimated, and flagged.
    expect(seen[0]!.report).toMatchObject({
      capability: "rerank",
      model: "stand-in-rerank",
      estimated: true,
      ok: true,
    });
  });

  it("a call outside any action still reaches the sink, with no context", async () => {
    await live().generate({ messages });
    expect(seen[0]!.context).toBeUndefined();
  });

  it("reads the usage shapes of embedding, rerank and speech APIs", () => {
    expect(reportedUsage('{"usage":{"prompt_tokens":12,"total_tokens":12}}')).toEqual({ tokensIn: 12, tokensOut: 0 });
    expect(reportedUsage('{"usage":{"input_tokens":5,"output_tokens":9}}')).toEqual({ tokensIn: 5, tokensOut: 9 });
    expect(reportedUsage('{"usage":{"total_tokens":30}}')).toEqual({ tokensIn: 30, tokensOut: 0 });
    expect(reportedUsage('{"meta":{"billed_units":{"input_tokens":7}}}')).toEqual({ tokensIn: 7, tokensOut: 0 });
    expect(reportedUsage('{"results":[]}')).toBeNull();
    expect(reportedUsage("plain text")).toBeNull();
  });
});
