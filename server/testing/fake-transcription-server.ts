import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { requireTool, runTool } from "@/server/parsing/system-tools";

/**
 * For tests only: a local stand-in for OpenAI's `POST /v1/audio/transcriptions` (the API Groq copies), because no
 * speech model runs here. It does what the real one checks — bearer key, model, a multipart `file` that decodes as
 * audio (ffprobe), size and length limits — and answers verbose_json the way Whisper does, with segments taken
 * from a transcript fixture and a duration measured on the uploaded audio.
 *
 * The fixture's times are positions in the whole recording. The parts of a long file arrive one after another, so
 * each upload is served the cues that start within it, counted from the end of the audio uploaded before it.
 */

export type FakeCue = { start: number; end: number; text: string };

export type FakeTranscriptionOptions = {
  /** Required bearer token; undefined accepts requests without one. */
  apiKey?: string;
  models?: string[];
  /** As Whisper names it ("english", "french"). Options are read per request, so getters can change them. */
  language?: string;
  transcript: FakeCue[];
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** Answers served, one per request, before any real work (rate limits, outages). */
  failures?: { status: number; body: unknown; headers?: Record<string, string> }[];
};

export type ReceivedUpload = {
  fileName: string;
  bytes: number;
  model: string;
  responseFormat: string;
  granularities: string[];
  prompt: string | null;
  formatName: string;
  codec: string;
  sampleRate: number;
  channels: number;
  duration: number;
  /** Where this upload starts in the recording, as the fake counts it. */
  offset: number;
};

export type FakeTranscriptionServer = {
  /** Base URL as users configure it (ends in /v1). */
  baseUrl: string;
  uploads: ReceivedUpload[];
  /** Every request received, answered or refused. */
  requestCount: () => number;
  /** Start a new recording: offsets count from 0 again. */
  reset: () => void;
  close: () => Promise<void>;
};

const SUPPORTED = ["flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"];
const MAX_BYTES = 25 * 1024 * 1024;

const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};

const openAiError = (res: ServerResponse, status: number, message: string, code: string | null = null) =>
  sendJson(res, status, { error: { message, type: "invalid_request_error", param: null, code } });

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
};

type Probe = { formatName: string; codec: string; sampleRate: number; channels: number; duration: number };

const probeUpload = async (bytes: Buffer, fileName: string): Promise<Probe | null> => {
  const ffprobe = await requireTool("ffprobe", "The fake transcription server");
  const dir = await mkdtemp(path.join(os.tmpdir(), "fake-speech-"));
  try {
    const file = path.join(dir, `upload${path.extname(fileName)}`);
    await writeFile(file, bytes);
    const { stdout } = await runTool(
      ffprobe,
      ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file],
      { timeoutMs: 20_000, what: "Probing the upload" },
    );
    const info = JSON.parse(stdout.toString("utf8")) as {
      format?: { format_name?: string; duration?: string };
      streams?: { codec_type?: string; codec_name?: string; sample_rate?: string; channels?: number }[];
    };
    const audio = info.streams?.find((s) => s.codec_type === "audio");
    const duration = Number(info.format?.duration);
    if (!audio || !Number.isFinite(duration)) return null;
    return {
      formatName: info.format?.format_name ?? "",
      codec: audio.codec_name ?? "",
      sampleRate: Number(audio.sample_rate),
      channels: audio.channels ?? 0,
      duration,
    };
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Why a request is refused, as the real API words it. */
type Refusal = { status: number; message: string; code?: string };

const refuse = (res: ServerResponse, refusal: Refusal) =>
  openAiError(res, refusal.status, refusal.message, refusal.code ?? null);

const checkApiKey = (req: IncomingMessage, apiKey: string | undefined): Refusal | null => {
  if (apiKey === undefined) return null;
  const auth = req.headers.authorization ?? "";
  if (!auth.startsWith("Bearer ")) {
    return {
      status: 401,
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    };
  }
  const given = auth.slice("Bearer ".length);
  if (given !== apiKey) {
    // The real API echoes (part of) the wrong key back; the client must not pass it on.
    return {
      status: 401,
      message: `Incorrect API key provided: ${given}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      code: "invalid_api_key",
    };
  }
  return null;
};

const readForm = async (req: IncomingMessage, body: Buffer): Promise<FormData | Refusal> => {
  const contentType = req.headers["content-type"] ?? "";
  if (!contentType.startsWith("multipart/form-data")) return { status: 400, message: "Could not parse multipart form" };
  try {
    return await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    return { status: 400, message: "Could not parse multipart form" };
  }
};

/** What an accepted upload carries; `ReceivedUpload` without its offset. */
type Upload = Omit<ReceivedUpload, "offset">;

/** The form's fields checked in the order the real API checks them. */
const readUpload = async (form: FormData, models: string[]): Promise<Upload | Refusal> => {
  const model = form.get("model");
  if (typeof model !== "string" || !model) return { status: 400, message: "you must provide a model parameter" };
  if (!models.includes(model)) {
    return {
      status: 404,
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      code: "model_not_found",
    };
  }
  const file = form.get("file");
  if (!file || typeof file === "string") {
    return {
      status: 400,
      message: "1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)",
    };
  }
  const fileName = (file as File).name ?? "";
  const ext = path.extname(fileName).slice(1).toLowerCase();
  const bytes = Buffer.from(await file.arrayBuffer());
  const probe = SUPPORTED.includes(ext) ? await probeUpload(bytes, fileName) : null;
  if (!probe) return { status: 400, message: `Invalid file format. Supported formats: ${JSON.stringify(SUPPORTED)}` };
  if (probe.duration < 0.1) {
    return {
      status: 400,
      message: "Audio file is too short. Minimum audio length is 0.1 seconds.",
      code: "audio_too_short",
    };
  }
  const responseFormat =
    typeof form.get("response_format") === "string" ? (form.get("response_format") as string) : "json";
  const granularities = form.getAll("timestamp_granularities[]").filter((v): v is string => typeof v === "string");
  const prompt = form.get("prompt");
  return {
    fileName,
    bytes: bytes.length,
    model,
    responseFormat,
    granularities,
    prompt: typeof prompt === "string" ? prompt : null,
    ...probe,
  };
};

const isRefusal = (value: object): value is Refusal => "status" in value && "message" in value;

/** Whisper's verbose_json segments for the cues that start within this upload, timed from its start. */
const segmentsOf = (cues: FakeCue[], start: number, duration: number) =>
  cues.map((cue, id) => {
    const s = round2(cue.start - start);
    return {
      id,
      seek: Math.floor(s * 100),
      start: s,
      end: round2(Math.min(cue.end - start, duration)),
      text: ` ${cue.text}`,
      tokens: cue.text.split(/\s+/).map((_, i) => 50364 + i),
      temperature: 0,
      avg_logprob: -0.21,
      compression_ratio: 1.35,
      no_speech_prob: 0.02,
    };
  });

const sendTranscript = (res: ServerResponse, options: FakeTranscriptionOptions, upload: Upload, start: number) => {
  const cues = options.transcript.filter((c) => c.start >= start && c.start < start + upload.duration);
  const text = cues.map((c) => c.text).join(" ");
  if (upload.responseFormat === "text") {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    return res.end(text);
  }
  if (upload.responseFormat !== "verbose_json") return sendJson(res, 200, { text });
  const language = options.language ?? "english";
  const segments = segmentsOf(cues, start, upload.duration);
  return sendJson(res, 200, { task: "transcribe", language, duration: round2(upload.duration), text, segments });
};

/** One recording: what the fake has been sent so far, and where the next upload starts in it. */
type Recording = {
  options: FakeTranscriptionOptions;
  models: string[];
  failures: NonNullable<FakeTranscriptionOptions["failures"]>;
  uploads: ReceivedUpload[];
  offset: number;
  requests: number;
};

const handle = async (recording: Recording, req: IncomingMessage, res: ServerResponse) => {
  const { options } = recording;
  recording.requests++;
  const body = await readBody(req);
  if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  if (req.method !== "POST" || req.url !== "/v1/audio/transcriptions") {
    return openAiError(res, 404, `Invalid URL (${req.method} ${req.url})`);
  }
  const failure = recording.failures.shift();
  if (failure) return sendJson(res, failure.status, failure.body, failure.headers);
  const badKey = checkApiKey(req, options.apiKey);
  if (badKey) return refuse(res, badKey);
  if (body.length > MAX_BYTES) return openAiError(res, 413, "Maximum content size limit (26214400) exceeded.");
  const form = await readForm(req, body);
  if (isRefusal(form)) return refuse(res, form);
  const upload = await readUpload(form, recording.models);
  if (isRefusal(upload)) return refuse(res, upload);
  const start = recording.offset;
  recording.offset += upload.duration;
  recording.uploads.push({ ...upload, offset: start });
  return sendTranscript(res, options, upload, start);
};

export const startFakeTranscriptionServer = async (
  options: FakeTranscriptionOptions,
): Promise<FakeTranscriptionServer> => {
  const recording: Recording = {
    options,
    models: options.models ?? ["whisper-1", "whisper-large-v3"],
    failures: [...(options.failures ?? [])],
    uploads: [],
    offset: 0,
    requests: 0,
  };
  const server = createServer((req, res) => {
    handle(recording, req, res).catch((error: unknown) => {
      if (!res.headersSent)
        openAiError(res, 500, `The server had an error while processing your request (${String(error)})`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    uploads: recording.uploads,
    requestCount: () => recording.requests,
    reset: () => {
      recording.offset = 0;
      recording.uploads.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
