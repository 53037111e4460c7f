import { env } from "@/server/env";
import { AppError, errorMessage } from "@/server/errors";

/** An OpenAI- or Groq-compatible `/audio/transcriptions` endpoint (OpenAI, Groq, faster-whisper servers …). */
export type SpeechProvider = { baseUrl: string; apiKey?: string; model: string };

/** The configured speech provider, or null when none is set (media then falls back to subtitle tracks). */
export const speechProvider = (): SpeechProvider | null =>
  env.SPEECH_BASE_URL ? { baseUrl: env.SPEECH_BASE_URL, apiKey: env.SPEECH_API_KEY, model: env.SPEECH_MODEL } : null;

/** Times in seconds from the start of the uploaded audio. */
export type SpeechSegment = { start: number; end: number; text: string };

export type Transcription = {
  text: string;
  /** As the provider spells it ("english", "en"); null when it did not say. */
  language: string | null;
  /** Seconds of audio the provider heard; null when it did not say. */
  duration: number | null;
  segments: SpeechSegment[];
  model: string;
};

export type TranscribeRequest = {
  audio: Uint8Array;
  /** Name sent with the upload; providers read the format from its extension. */
  fileName: string;
  mimeType: string;
  /** Text that came just before this audio: keeps names and spelling consistent across the parts of a long file. */
  prompt?: string;
  /** ISO 639-1 hint; the provider detects the language when absent. */
  language?: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Further attempts after a 429, a 5xx or a refused connection. */
  retries?: number;
};

/** OpenAI and Groq refuse uploads above 25 MB. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const MAX_RETRY_WAIT_MS = 30_000;
const MAX_MESSAGE_CHARS = 300;

/**
 * Whisper marks silence it "transcribed" anyway (its hallucinations) with a high no-speech probability and a low
 * log probability; Whisper's own decoder drops segments past both of these thresholds.
 */
const NO_SPEECH_PROB = 0.6;
const LOW_AVG_LOGPROB = -1;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The provider's message without the key, even when the provider echoes it ("Incorrect API key provided: …"). */
const redact = (text: string, apiKey?: string) => {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join("***");
  return out.replace(/Bearer\s+\S+/gi, "Bearer ***");
};

const providerMessage = (raw: string, contentType: string | null): string => {
  if (contentType?.includes("json")) {
    try {
      const body = JSON.parse(raw) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
      const message =
        (typeof body.error === "object" ? body.error?.message : body.error) ?? body.message ?? body.detail;
      if (typeof message === "string" && message.trim()) return message.trim();
      if (message !== undefined) return JSON.stringify(message);
    } catch {
      // Not JSON after all: fall through to the raw text.
    }
  }
  return raw
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
};

const retryDelayMs = (response: Response | null, attempt: number) => {
  const header = response?.headers.get("retry-after");
  const seconds = header ? Number(header) : NaN;
  const ms = Number.isFinite(seconds) ? seconds * 1000 : 1000 * 2 ** attempt;
  return Math.min(Math.max(ms, 0), MAX_RETRY_WAIT_MS);
};

const isRetryableStatus = (status: number) => status === 429 || status >= 500;

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
 * Transcribes one piece of audio (≤ 25 MB) with timestamps. Failures become UNPROCESSABLE errors naming the
 * provider's host, the HTTP status and the provider's own message; the API key never appears in them.
 */
export const transcribeAudio = async (provider: SpeechProvider, request: TranscribeRequest): Promise<Transcription> => {
  const { audio, fileName, mimeType, prompt, language, timeoutMs = DEFAULT_TIMEOUT_MS, retries = 2 } = request;
  if (audio.byteLength > MAX_UPLOAD_BYTES) {
    throw new AppError("UNPROCESSABLE", `A piece of audio of ${audio.byteLength} bytes is over the 25 MB upload limit`);
  }
  const url = `${provider.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
  const host = new URL(url).host;
  const failed = (detail: string) =>
    new AppError(
      "UNPROCESSABLE",
      redact(`Transcription by the speech provider at ${host} failed: ${detail}`, provider.apiKey),
    );

  for (let attempt = 0; ; attempt++) {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(audio)], { type: mimeType }), fileName);
    form.append("model", provider.model);
    form.append("response_format", "verbose_json");
    form.append("timestamp_granularities[]", "segment");
    if (prompt) form.append("prompt", prompt);
    if (language) form.append("language", language);

    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {},
        body: form,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      if (timedOut) throw failed(`no answer within ${Number((timeoutMs / 1000).toFixed(1))} s`);
      if (attempt < retries) {
        await sleep(retryDelayMs(null, attempt));
        continue;
      }
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : errorMessage(error);
      throw failed(`could not connect (${cause})`);
    }

    let raw: string;
    try {
      raw = await response.text();
    } catch (error) {
      throw failed(`the answer broke off (${errorMessage(error)})`);
    }
    if (!response.ok) {
      if (isRetryableStatus(response.status) && attempt < retries) {
        await sleep(retryDelayMs(response, attempt));
        continue;
      }
      const message = providerMessage(raw, response.headers.get("content-type")).slice(0, MAX_MESSAGE_CHARS);
      throw failed(`HTTP ${response.status}${message ? `: ${message}` : ` ${response.statusText}`}`);
    }
    let body: unknown = raw;
    const saysJson = response.headers.get("content-type")?.includes("json") ?? false;
    if (saysJson || raw.trimStart().startsWith("{")) {
      try {
        body = JSON.parse(raw);
      } catch {
        if (saysJson) throw failed("the answer is not valid JSON");
      }
    }
    return readTranscription(body, provider.model);
  }
};
