import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMedia } from "@/server/parsing/media/test-fixtures";
import { startFakeTranscriptionServer, type FakeTranscriptionServer } from "../../testing/fake-transcription-server";
import { ProviderError } from "../errors";
import { transcribeAudio } from "./transcribe";

const KEY = "sk-test-0123456789abcdef";
const CUES = [
  { start: 0.1, end: 0.6, text: "Houston, we copy." },
  { start: 0.6, end: 1.4, text: "Roger, standing by." },
];

let mp3: Buffer;
let server: FakeTranscriptionServer;

beforeAll(async () => {
  mp3 = await makeMedia({ ext: "mp3", seconds: 1.5 });
  server = await startFakeTranscriptionServer({ apiKey: KEY, transcript: CUES });
});
afterAll(() => server?.close());

const request = () => ({ audio: mp3, fileName: "part-001.mp3", mimeType: "audio/mpeg" });

describe("transcribeAudio against an OpenAI-compatible server", () => {
  it("uploads multipart audio with the model and verbose_json and reads the segments", async () => {
    server.reset();
    const result = await transcribeAudio(
      { baseUrl: server.baseUrl, apiKey: KEY, model: "whisper-1" },
      { ...request(), prompt: "Earlier words" },
    );
    expect(result.segments).toEqual([
      { start: 0.1, end: 0.6, text: "Houston, we copy." },
      { start: 0.6, end: 1.4, text: "Roger, standing by." },
    ]);
    expect(result.language).toBe("english");
    expect(result.duration).toBeGreaterThan(1.4);
    expect(result.model).toBe("whisper-1");
    const upload = server.uploads[0]!;
    expect(upload).toMatchObject({
      model: "whisper-1",
      responseFormat: "verbose_json",
      granularities: ["segment"],
      prompt: "Earlier words",
      codec: "mp3",
      fileName: "part-001.mp3",
    });
  });

  it("names the HTTP status and the provider's message, never the key", async () => {
    const wrong = "sk-wrong-key-should-not-leak-42";
    const error = await transcribeAudio({ baseUrl: server.baseUrl, apiKey: wrong, model: "whisper-1" }, request()).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/127\.0\.0\.1:\d+ failed: HTTP 401: Incorrect API key provided/);
    expect(error?.message).not.toContain(wrong);
    expect(error).toMatchObject({ code: "UNPROCESSABLE", cause: { retryable: false, status: 401 } });
  });

  it("reports an unknown model and a missing key", async () => {
    await expect(
      transcribeAudio({ baseUrl: server.baseUrl, apiKey: KEY, model: "whisper-9" }, request()),
    ).rejects.toThrow(/HTTP 404: The model `whisper-9` does not exist/);
    await expect(transcribeAudio({ baseUrl: server.baseUrl, model: "whisper-1" }, request())).rejects.toThrow(
      /HTTP 401: You didn't provide an API key/,
    );
  });

  it("passes on the provider refusing a file that is not audio", async () => {
    await expect(
      transcribeAudio(
        { baseUrl: server.baseUrl, apiKey: KEY, model: "whisper-1" },
        { audio: Buffer.from("not audio at all"), fileName: "part-001.mp3", mimeType: "audio/mpeg" },
      ),
    ).rejects.toThrow(/HTTP 400: Invalid file format/);
  });

  it("retries a rate limit (429 with Retry-After) and a 503, then succeeds", async () => {
    const flaky = await startFakeTranscriptionServer({
      transcript: CUES,
      failures: [
        { status: 429, body: { error: { message: "Rate limit reached" } }, headers: { "retry-after": "0" } },
        { status: 503, body: { error: { message: "Service unavailable" } }, headers: { "retry-after": "0" } },
      ],
    });
    try {
      const result = await transcribeAudio({ baseUrl: flaky.baseUrl, model: "whisper-1" }, request());
      expect(result.segments).toHaveLength(2);
      expect(flaky.requestCount()).toBe(3);
    } finally {
      await flaky.close();
    }
  });

  it("gives up on a rate limit after the retries, saying so", async () => {
    const limited = await startFakeTranscriptionServer({
      transcript: CUES,
      failures: Array.from({ length: 3 }, () => ({
        status: 429,
        body: { error: { message: "Rate limit reached for model whisper-1" } },
        headers: { "retry-after": "0" },
      })),
    });
    try {
      const error = await transcribeAudio({ baseUrl: limited.baseUrl, model: "whisper-1" }, request()).catch(
        (e: unknown) => e,
      );
      expect((error as Error).message).toMatch(/HTTP 429: Rate limit reached for model whisper-1/);
      // The job can tell a rate limit from a bad request: the provider error under it says whether to retry.
      expect((error as Error).cause).toBeInstanceOf(ProviderError);
      expect((error as Error).cause).toMatchObject({ retryable: true, status: 429 });
      expect(limited.requestCount()).toBe(3);
    } finally {
      await limited.close();
    }
  });

  it("times out a provider that does not answer", async () => {
    const slow = await startFakeTranscriptionServer({ transcript: CUES, delayMs: 2000 });
    try {
      await expect(
        transcribeAudio({ baseUrl: slow.baseUrl, model: "whisper-1" }, { ...request(), timeoutMs: 300 }),
      ).rejects.toThrow(/failed: no answer within 0.3 s/);
    } finally {
      await slow.close();
    }
  });

  it("says it could not connect when nothing listens", async () => {
    const closed = await startFakeTranscriptionServer({ transcript: CUES });
    const baseUrl = closed.baseUrl;
    await closed.close();
    await expect(transcribeAudio({ baseUrl, model: "whisper-1" }, { ...request(), retries: 0 })).rejects.toThrow(
      /could not connect \(.*ECONNREFUSED/,
    );
  });

  it("drops segments Whisper itself marks as hallucinated silence and accepts a plain-text answer", async () => {
    const { createServer } = await import("node:http");
    let reply: { type: string; body: string } = { type: "application/json", body: "" };
    const http = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": reply.type });
        res.end(reply.body);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}/v1`;
    try {
      reply = {
        type: "application/json",
        body: JSON.stringify({
          language: "en",
          duration: 5,
          text: "Hello. Thanks for watching!",
          segments: [
            { start: 0, end: 1, text: " Hello.", no_speech_prob: 0.1, avg_logprob: -0.3 },
            { start: 1, end: 5, text: " Thanks for watching!", no_speech_prob: 0.9, avg_logprob: -1.4 },
          ],
        }),
      };
      const verbose = await transcribeAudio({ baseUrl, model: "m" }, request());
      expect(verbose.segments).toEqual([{ start: 0, end: 1, text: "Hello." }]);
      reply = { type: "text/plain", body: "Just the words." };
      const plain = await transcribeAudio({ baseUrl, model: "m" }, request());
      expect(plain.segments).toEqual([{ start: 0, end: 0, text: "Just the words." }]);
      reply = { type: "application/json", body: "{not json" };
      await expect(transcribeAudio({ baseUrl, model: "m" }, request())).rejects.toThrow(/not valid JSON/);
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
