/**
 * Speech-to-text behind one interface: the media parser transcribes audio through a SpeechModel it is given. The
 * config is plain data, so it can travel to a parse worker process and be made into a model there (client.ts).
 */

/** An OpenAI- or Groq-compatible `/audio/transcriptions` endpoint (OpenAI, Groq, faster-whisper servers …). */
export type SpeechModelConfig = { baseUrl: string; apiKey?: string; model: string };

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

export type SpeechModel = {
  /** The model id as the provider knows it (`whisper-1`, `whisper-large-v3`). */
  id: string;
  /** What a parse worker process needs to make the same model (speech/client.ts). */
  config: SpeechModelConfig;
  /**
   * One piece of audio (≤ 25 MB) with timestamps. Failures are UNPROCESSABLE errors naming the provider's host, the
   * HTTP status and the provider's own message (their cause is the ProviderError, with `retryable`).
   */
  transcribe: (request: TranscribeRequest) => Promise<Transcription>;
};
