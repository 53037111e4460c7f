import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { requireTool } from "@/server/parsing/system-tools";
import type { Parser, ParserInput, PartitionResult } from "@/server/parsing/types";
import { normalizeLanguage } from "./language";
import type { SpeechModel } from "@/server/providers/speech/types";
import { extractAudioChunks } from "./audio";
import { mediaError } from "./ffmpeg";
import { probeMedia, type AudioStream, type MediaInfo, type SubtitleStream } from "./probe";
import { chooseSubtitleTrack, readSubtitleTrack } from "./subtitles";
import { transcriptElements, type TimedText } from "./transcript";

/** Longer recordings are refused: six hours is already ~36 provider calls. */
export const MAX_MEDIA_SECONDS = 6 * 3600;
/** Parts sent to the provider: 10 min of 32 kb/s MP3 is 2.4 MB, far under the 25 MB OpenAI and Groq accept. */
export const CHUNK_SECONDS = 600;
/** Kept under the providers' 25 MB with room for the multipart envelope. */
const MAX_CHUNK_BYTES = 24 * 1024 * 1024;
/** The end of the previous part, sent as `prompt` so names and spelling carry over a cut. */
const PROMPT_CHARS = 200;

export type MediaOptions = {
  /** The speech-to-text model; absent or null: none, and subtitle tracks are the only transcript. */
  speech?: SpeechModel | null;
  chunkSeconds?: number;
  /** Per provider call. */
  requestTimeoutMs?: number;
};

type Context = { ext: string; fileName: string; inputPath: string; dir: string; info: MediaInfo };

const describeLength = (seconds: number) => {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

const describeTrack = (t: { ordinal: number; language: string | null; codec: string }) =>
  `#${t.ordinal + 1} (${[t.language ?? "no language tag", t.codec].join(", ")})`;

const transcribeSpeech = async (
  ctx: Context,
  provider: SpeechModel,
  stream: AudioStream,
  options: MediaOptions,
): Promise<PartitionResult> => {
  const { ext, fileName, inputPath, dir, info } = ctx;
  const ffmpeg = await requireTool("ffmpeg", `Reading .${ext} files`);
  const chunks = await extractAudioChunks(ffmpeg, inputPath, {
    dir,
    audioOrdinal: stream.ordinal,
    duration: info.duration,
    maxSeconds: MAX_MEDIA_SECONDS,
    chunkSeconds: options.chunkSeconds ?? CHUNK_SECONDS,
    ext,
    fileName,
  });
  const segments: TimedText[] = [];
  let model = provider.id;
  let previous = "";
  for (const [i, chunk] of chunks.entries()) {
    const audio = await readFile(chunk.file);
    if (audio.byteLength > MAX_CHUNK_BYTES) {
      throw mediaError(`Part ${i + 1} of the audio of the .${ext} file is over the 25 MB a speech provider accepts`);
    }
    const result = await provider.transcribe({
      audio,
      fileName: `part-${String(i + 1).padStart(3, "0")}.mp3`,
      mimeType: "audio/mpeg",
      prompt: previous.slice(-PROMPT_CHARS) || undefined,
      timeoutMs: options.requestTimeoutMs,
    });
    model = result.model;
    const language = normalizeLanguage(result.language);
    const length = chunk.end - chunk.start;
    // Providers may place a last segment a little past the audio they got; times stay inside the part.
    for (const seg of result.segments) {
      segments.push({
        start: chunk.start + Math.min(seg.start, length),
        end: chunk.start + Math.min(seg.end, length),
        text: seg.text,
        language,
      });
    }
    if (result.text) previous = result.text;
  }
  const elements = transcriptElements(segments, { transcript_source: "speech", speech_model: model });
  const warnings: string[] = [];
  if (info.audio.length > 1) {
    warnings.push(`The file has ${info.audio.length} audio tracks; track ${describeTrack(stream)} was transcribed`);
  }
  if (elements.length === 0) warnings.push(`No speech was recognised in the .${ext} file`);
  return { elements, totalPages: null, warnings };
};

const readSubtitles = async (ctx: Context, track: SubtitleStream, provider: SpeechModel | null) => {
  const { ext, fileName, inputPath, info } = ctx;
  const ffmpeg = await requireTool("ffmpeg", `Reading .${ext} files`);
  const cues = await readSubtitleTrack(ffmpeg, inputPath, { track, duration: info.duration, ext, fileName });
  const elements = transcriptElements(
    cues.map((c) => ({ ...c, language: track.language })),
    {
      transcript_source: "subtitles",
      subtitle_track: { index: track.ordinal, language: track.language, codec: track.codec, title: track.title },
    },
  );
  const textTracks = info.subtitles.filter((t) => t.isText).length;
  const warnings = [
    `The transcript comes from subtitle track ${describeTrack(track)}${textTracks > 1 ? ` of ${textTracks}` : ""}`,
  ];
  if (info.audio.length > 0 && !provider) {
    warnings.push("The audio itself was not transcribed: no speech provider is set (SPEECH_BASE_URL)");
  }
  if (elements.length === 0) warnings.push("The subtitle track holds no text");
  return { elements, totalPages: null, warnings };
};

/**
 * Audio and video become a timed transcript: speech-to-text when a provider is configured, else the text
 * subtitle track inside the file. Every method reads media the same way.
 */
export const partitionMediaWith = async (
  { bytes, fileName, fileType }: ParserInput,
  options: MediaOptions = {},
): Promise<PartitionResult> => {
  const ext = fileType.toLowerCase().replace(/[^a-z0-9]/g, "") || "media";
  if (bytes.byteLength === 0) throw mediaError(`The .${ext} file is empty`);
  const ffprobe = await requireTool("ffprobe", `Reading .${ext} files`);
  const dir = await mkdtemp(path.join(os.tmpdir(), "quarry-media-"));
  try {
    // ffmpeg gets a path it made up, never the uploaded name: nothing from the upload reaches its command line.
    const inputPath = path.join(dir, `input.${ext}`);
    await writeFile(inputPath, bytes);
    const info = await probeMedia(ffprobe, inputPath, { fileName, ext });
    if (info.duration !== null && info.duration > MAX_MEDIA_SECONDS) {
      throw mediaError(
        `The .${ext} file is ${describeLength(info.duration)} long; Quarry transcribes recordings of up to 6 hours`,
      );
    }
    if (info.audio.length === 0 && info.subtitles.length === 0) {
      throw mediaError(`The .${ext} file has no audio track and no subtitle track, so there is nothing to transcribe`);
    }
    const ctx: Context = { ext, fileName, inputPath, dir, info };
    const provider = options.speech ?? null;
    if (provider && info.audio.length > 0) {
      const stream = info.audio.find((a) => a.isDefault) ?? info.audio[0]!;
      return await transcribeSpeech(ctx, provider, stream, options);
    }
    const track = chooseSubtitleTrack(info.subtitles);
    if (track) return await readSubtitles(ctx, track, provider);

    const imageTracks = [...new Set(info.subtitles.map((t) => t.codec))].join(", ");
    if (info.audio.length === 0) {
      throw mediaError(
        `The .${ext} file has no audio track, and its subtitle tracks are images (${imageTracks}), which Quarry cannot read as text`,
      );
    }
    throw mediaError(
      `Transcribing .${ext} files needs a speech provider: set SPEECH_BASE_URL (and SPEECH_API_KEY) to an OpenAI- or ` +
        `Groq-compatible transcription API; this file has no ${imageTracks ? "text " : ""}subtitle track to use instead`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

export const partitionMedia: Parser = (input) => partitionMediaWith(input, { speech: input.speech });
