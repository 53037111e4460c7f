import { runTool } from "@/server/parsing/system-tools";
import { isEnglish } from "./language";
import { isToolTimeout, mediaError, safeInputArgs, toolFailureDetail } from "./ffmpeg";
import type { SubtitleStream } from "./probe";

/** A timed line of text; times in seconds from the start of the recording. */
export type Cue = { start: number; end: number; text: string };

const MAX_VTT_BYTES = 32 * 1024 * 1024;

const TIMESTAMP = String.raw`(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})`;
const TIMING_RE = new RegExp(`^\\s*${TIMESTAMP}\\s*-->\\s*${TIMESTAMP}`);

const seconds = (h: string | undefined, m: string, s: string, ms: string) =>
  Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(ms.padEnd(3, "0")) / 1000;

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  lrm: "",
  rlm: "",
};

const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

/** Cue text as a reader sees it: no markup (<i>, <c.x>, <v Name>, inline times, ASS overrides), one line. */
const cueText = (lines: string[]) =>
  decodeEntities(
    lines
      .join(" ")
      .replace(/<[^>]*>/g, "")
      .replace(/\{\\[^}]*\}/g, "")
      .replace(/\\[Nn]/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();

/**
 * Cues of a WebVTT document (also accepts SRT-style commas). Header, NOTE, STYLE and REGION blocks are skipped;
 * a cue repeated with the same text (roll-up captions) is kept once, stretched over both times.
 */
export const parseWebVtt = (vtt: string): Cue[] => {
  const cues: Cue[] = [];
  const blocks = vtt
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split("\n");
    if (/^(WEBVTT|NOTE|STYLE|REGION)\b/.test(lines[0]?.trim() ?? "")) continue;
    const timingAt = lines.findIndex((line) => line.includes("-->"));
    if (timingAt < 0 || timingAt > 1) continue;
    const m = TIMING_RE.exec(lines[timingAt]!);
    if (!m) continue;
    const start = seconds(m[1], m[2]!, m[3]!, m[4]!);
    const end = Math.max(start, seconds(m[5], m[6]!, m[7]!, m[8]!));
    const text = cueText(lines.slice(timingAt + 1));
    if (!text) continue;
    const last = cues.at(-1);
    if (last && last.text === text && start <= last.end + 0.05) {
      last.end = Math.max(last.end, end);
      continue;
    }
    cues.push({ start, end, text });
  }
  return cues;
};

/**
 * The track to read: complete subtitles (not "forced" ones, which only cover foreign-language lines) first, then
 * English, then the one marked default, then file order.
 */
export const chooseSubtitleTrack = (tracks: SubtitleStream[]): SubtitleStream | null => {
  const text = tracks.filter((t) => t.isText);
  const rank = (t: SubtitleStream) => (t.isForced ? 4 : 0) + (isEnglish(t.language) ? 0 : 2) + (t.isDefault ? 0 : 1);
  return [...text].sort((a, b) => rank(a) - rank(b) || a.ordinal - b.ordinal)[0] ?? null;
};

/** A text subtitle track's cues, converted to WebVTT by ffmpeg (subrip, ass, mov_text … all come out the same). */
export const readSubtitleTrack = async (
  ffmpeg: string,
  inputPath: string,
  { track, duration, ext, fileName }: { track: SubtitleStream; duration: number | null; ext: string; fileName: string },
): Promise<Cue[]> => {
  let stdout: Buffer;
  try {
    ({ stdout } = await runTool(
      ffmpeg,
      [
        "-nostdin",
        "-hide_banner",
        "-v",
        "error",
        ...safeInputArgs(),
        "-i",
        inputPath,
        "-map",
        `0:s:${track.ordinal}`,
        "-c:s",
        "webvtt",
        "-f",
        "webvtt",
        "-",
      ],
      {
        timeoutMs: 60_000 + (duration ?? 6 * 3600) * 20,
        maxOutputBytes: MAX_VTT_BYTES,
        what: `Reading the subtitles of the .${ext} file`,
      },
    ));
  } catch (error) {
    if (isToolTimeout(error)) throw error;
    throw mediaError(
      `The subtitle track of the .${ext} file could not be read (${toolFailureDetail(error, inputPath, fileName)})`,
    );
  }
  return parseWebVtt(stdout.toString("utf8"));
};
