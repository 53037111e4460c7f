import { AppError } from "@/server/errors";
import { isProviderError, redactKey, type ProviderError } from "../errors";
import { connectFailure, isTimeout, postForText, type PostReply } from "../post-json";
import type { SpeechModelConfig, SpeechSegment, TranscribeRequest, Transcription } from "./types";

/** OpenAI and Groq refuse uploads above 25 MB. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const RETRY_DELAY_MS = 1000;

/**
 * Whisper marks silence it "transcribed" anyway (its hallucinations) with a high no-speech probability and a low
 * log probability; Whisper's own decoder drops segments past both of these thresholds.
 */
const NO_SPEECH_PROB = 0.6;
const LOW_AVG_LOGPROB = -1;

/** What went wrong, in the words a build error uses after "… failed: ". */
const failureDetail = (error: ProviderError, timeoutMs: number) => {
  if (error.status !== null) return `HTTP ${error.status}${error.remoteMessage ? `: ${error.remoteMessage}` : ""}`;
  if (isTimeout(error.cause)) return `no answer within ${Number((timeoutMs / 1000).toFixed(1))} s`;
  return `could not connect (${connectFailure(error.cause)})`;
};

const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** verbose_json → segments. Servers that ignore verbose_json still answer `{text}`: one segment for the whole audio. */
const readTranscription = (body: unknown, model: string): Transcription => {
  const data = (typeof body === "string" ? { text: body } : body) as {
    text?: unknown;
    language?: unknown;
    duration?: unknown;
    segments?: unknown;
  } | null;
  if (!data || typeof data !== "object" || (typeof data.text !== "string" && !Array.isArray(data.segments))) {
    throw new AppError("UNPROCESSABLE", `The speech model ${model} returned no transcript`);
  }
  const duration = num(data.duration);
  const segments: SpeechSegment[] = [];
  if (Array.isArray(data.segments)) {
    for (const item of data.segments as Record<string, unknown>[]) {
      const start = num(item?.start);
      const end = num(item?.end);
      const text = typeof item?.text === "string" ? item.text.trim() : "";
      if (start === null || end === null || !text) continue;
      const noSpeech = num(item.no_speech_prob);
      const logprob = num(item.avg_logprob);
      if (noSpeech !== null && logprob !== null && noSpeech > NO_SPEECH_PROB && logprob < LOW_AVG_LOGPROB) continue;
      segments.push({ start: Math.max(0, start), end: Math.max(start, end), text });
    }
  } else if (typeof data.text === "string" && data.text.trim()) {
    segments.push({ start: 0, end: duration ?? 0, text: data.text.trim() });
  }
  return {
    text: typeof data.text === "string" ? data.text.trim() : segments.map((s) => s.text).join(" "),
    language: typeof data.language === "string" && data.language.trim() ? data.language.trim() : null,
    duration,
    segments,
    model,
  };
};

/**
 * Transcribes one piece of audio (≤ 25 MB) with timestamps. Retries follow every provider call's rule (post-json.ts),
 * except that a request with no answer in time is not sent again. Failures become UNPROCESSABLE errors naming the
 * provider's host, the HTTP status and the provider's own message, with the ProviderError as their cause; the API
 * key never appears in them.
 */
export const transcribeAudio = async (
  config: SpeechModelConfig,
  request: TranscribeRequest,
): Promise<Transcription> => {
  const { audio, fileName, mimeType, prompt, language, timeoutMs = DEFAULT_TIMEOUT_MS, retries = 2 } = request;
  if (audio.byteLength > MAX_UPLOAD_BYTES) {
    throw new AppError("UNPROCESSABLE", `A piece of audio of ${audio.byteLength} bytes is over the 25 MB upload limit`);
  }
  const url = `${config.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
  const host = new URL(url).host;
  const failed = (detail: string, cause?: unknown) =>
    new AppError(
      "UNPROCESSABLE",
      redactKey(`Transcription by the speech provider at ${host} failed: ${detail}`, config.apiKey),
      { cause },
    );

  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(audio)], { type: mimeType }), fileName);
  form.append("model", config.model);
  form.append("response_format", "verbose_json");
  form.append("timestamp_granularities[]", "segment");
  if (prompt) form.append("prompt", prompt);
  if (language) form.append("language", language);

  let reply: PostReply;
  try {
    reply = await postForText({
      url,
      body: form,
      apiKey: config.apiKey,
      attempts: retries + 1,
      timeoutMs,
      retryTimeouts: false,
      retryDelayMs: RETRY_DELAY_MS,
      what: "Transcription",
      // Audio has no characters to estimate from: a server that reports no usage is recorded with the prompt only.
      record: { capability: "speech", model: config.model, inputChars: prompt?.length ?? 0 },
    });
  } catch (error) {
    if (!isProviderError(error)) throw error;
    throw failed(failureDetail(error, timeoutMs), error);
  }
  let body: unknown = reply.text;
  const saysJson = reply.contentType?.includes("json") ?? false;
  if (saysJson || reply.text.trimStart().startsWith("{")) {
    try {
      body = JSON.parse(reply.text);
    } catch {
      if (saysJson) throw failed("the answer is not valid JSON");
    }
  }
  return readTranscription(body, config.model);
};
