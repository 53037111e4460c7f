import { runTool } from "@/server/parsing/system-tools";
import { normalizeLanguage } from "./language";
import { isToolTimeout, mediaError, safeInputArgs, toolFailureDetail } from "./ffmpeg";

export type AudioStream = {
  /** Position among the file's audio streams (`-map 0:a:<n>`). */
  ordinal: number;
  codec: string;
  language: string | null;
  channels: number | null;
  sampleRate: number | null;
  isDefault: boolean;
};

export type SubtitleStream = {
  /** Position among the file's subtitle streams (`-map 0:s:<n>`). */
  ordinal: number;
  codec: string;
  /** The container's tag ("eng") normalised to a code ("en"); null when untagged or "und". */
  language: string | null;
  title: string | null;
  isDefault: boolean;
  isForced: boolean;
  /** Text codecs ffmpeg converts to WebVTT; image subtitles (DVD, Blu-ray) are not. */
  isText: boolean;
};

export type MediaInfo = {
  formatName: string;
  /** Seconds; null when the container does not say. */
  duration: number | null;
  hasVideo: boolean;
  audio: AudioStream[];
  subtitles: SubtitleStream[];
};

/** Subtitle codecs that carry text. */
const TEXT_SUBTITLE_CODECS = new Set([
  "subrip",
  "srt",
  "ass",
  "ssa",
  "webvtt",
  "mov_text",
  "text",
  "microdvd",
  "subviewer",
  "subviewer1",
  "jacosub",
  "realtext",
  "sami",
  "stl",
  "mpl2",
  "pjs",
  "vplayer",
  "eia_608",
]);

type RawStream = {
  codec_type?: string;
  codec_name?: string;
  channels?: number;
  sample_rate?: string;
  duration?: string;
  disposition?: Record<string, number>;
  tags?: Record<string, string>;
};

const PROBE_TIMEOUT_MS = 30_000;

const finite = (value: unknown): number | null => {
  const n = typeof value === "string" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
};

const tag = (tags: Record<string, string> | undefined, name: string): string | null => {
  if (!tags) return null;
  const key = Object.keys(tags).find((k) => k.toLowerCase() === name);
  const value = key ? tags[key]?.trim() : "";
  return value ? value : null;
};

/** What ffprobe sees in a file: length and streams. A file it cannot read ends as an UNPROCESSABLE error. */
export const probeMedia = async (
  ffprobe: string,
  inputPath: string,
  { fileName, ext }: { fileName: string; ext: string },
): Promise<MediaInfo> => {
  let stdout: Buffer;
  try {
    ({ stdout } = await runTool(
      ffprobe,
      ["-v", "error", ...safeInputArgs(), "-print_format", "json", "-show_format", "-show_streams", inputPath],
      { timeoutMs: PROBE_TIMEOUT_MS, maxOutputBytes: 8 * 1024 * 1024, what: `Reading the .${ext} file` },
    ));
  } catch (error) {
    if (isToolTimeout(error)) throw error;
    throw mediaError(
      `The .${ext} file is not a readable media file (${toolFailureDetail(error, inputPath, fileName)})`,
    );
  }
  let info: { format?: { format_name?: string; duration?: string }; streams?: RawStream[] };
  try {
    info = JSON.parse(stdout.toString("utf8"));
  } catch {
    throw mediaError(`The .${ext} file is not a readable media file (ffprobe gave no description of it)`);
  }
  const streams = info.streams ?? [];
  const audio: AudioStream[] = [];
  const subtitles: SubtitleStream[] = [];
  let hasVideo = false;
  let longestStream: number | null = null;
  for (const s of streams) {
    const streamDuration = finite(s.duration);
    if (streamDuration !== null) longestStream = Math.max(longestStream ?? 0, streamDuration);
    const isDefault = s.disposition?.default === 1;
    if (s.codec_type === "video" && s.disposition?.attached_pic !== 1) hasVideo = true;
    if (s.codec_type === "audio") {
      audio.push({
        ordinal: audio.length,
        codec: s.codec_name ?? "unknown",
        language: normalizeLanguage(tag(s.tags, "language")),
        channels: finite(s.channels),
        sampleRate: finite(s.sample_rate),
        isDefault,
      });
    }
    if (s.codec_type === "subtitle") {
      const codec = s.codec_name ?? "unknown";
      subtitles.push({
        ordinal: subtitles.length,
        codec,
        language: normalizeLanguage(tag(s.tags, "language")),
        title: tag(s.tags, "title"),
        isDefault,
        isForced: s.disposition?.forced === 1,
        isText: TEXT_SUBTITLE_CODECS.has(codec),
      });
    }
  }
  return {
    formatName: info.format?.format_name ?? "unknown",
    duration: finite(info.format?.duration) ?? longestStream,
    hasVideo,
    audio,
    subtitles,
  };
};
