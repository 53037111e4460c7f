import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { requireTool, runTool } from "@/server/parsing/system-tools";

/**
 * Small media files made with ffmpeg's synthetic sources (lavfi), for tests that must pass without the corpus.
 * A tone stands in for speech: the fake transcription server does not listen, it only checks the audio decodes.
 */

export type SubtitleFixture = { srt: string; language?: string; default?: boolean; forced?: boolean; title?: string };

type Spec = {
  ext: string;
  seconds?: number;
  /** Include a tiny black video stream (and with which encoder). */
  video?: "mpeg4" | "libvpx" | "libx264";
  /** Audio codec; null for no audio stream. */
  audio?: string | null;
  subtitles?: SubtitleFixture[];
  /** Subtitle codec in the container (srt for mkv, mov_text for mp4/mov). */
  subtitleCodec?: string;
};

/** The audio codec each extension normally carries. */
export const AUDIO_CODEC: Record<string, string> = {
  mp3: "libmp3lame",
  wav: "pcm_s16le",
  m4a: "aac",
  ogg: "libvorbis",
  flac: "flac",
  mp4: "aac",
  mov: "aac",
  avi: "libmp3lame",
  mkv: "flac",
  webm: "libvorbis",
};

export const makeMedia = async ({
  ext,
  seconds = 1,
  video,
  audio = AUDIO_CODEC[ext],
  subtitles = [],
  subtitleCodec = "srt",
}: Spec): Promise<Buffer> => {
  const ffmpeg = await requireTool("ffmpeg", "Making test media");
  const dir = await mkdtemp(path.join(os.tmpdir(), "media-fixture-"));
  try {
    const args = ["-nostdin", "-v", "error", "-y"];
    const maps: string[] = [];
    let input = 0;
    if (video) {
      args.push("-f", "lavfi", "-t", String(seconds), "-i", "color=c=black:s=64x64:r=10");
      maps.push("-map", `${input++}:v`);
    }
    if (audio) {
      args.push("-f", "lavfi", "-t", String(seconds), "-i", "sine=frequency=440:sample_rate=16000");
      maps.push("-map", `${input++}:a`);
    }
    for (const [i, sub] of subtitles.entries()) {
      const file = path.join(dir, `sub${i}.srt`);
      await writeFile(file, sub.srt);
      args.push("-i", file);
      maps.push("-map", `${input++}:s`);
    }
    args.push(...maps);
    if (video) args.push("-c:v", video, ...(video === "libx264" ? ["-preset", "ultrafast"] : []));
    if (audio) args.push("-c:a", audio);
    if (subtitles.length) args.push("-c:s", subtitleCodec);
    for (const [i, sub] of subtitles.entries()) {
      if (sub.language) args.push(`-metadata:s:s:${i}`, `language=${sub.language}`);
      if (sub.title) args.push(`-metadata:s:s:${i}`, `title=${sub.title}`);
      const disposition = [sub.default ? "default" : "", sub.forced ? "forced" : ""].filter(Boolean).join("+") || "0";
      args.push(`-disposition:s:${i}`, disposition);
    }
    const out = path.join(dir, `out.${ext}`);
    args.push(out);
    await runTool(ffmpeg, args, { timeoutMs: 60_000, what: `Making a test .${ext}` });
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** SRT text from cues given in seconds. */
export const srt = (cues: { start: number; end: number; text: string }[]): string => {
  const t = (s: number) => {
    const ms = Math.round(s * 1000);
    const hh = String(Math.floor(ms / 3_600_000)).padStart(2, "0");
    const mm = String(Math.floor((ms % 3_600_000) / 60_000)).padStart(2, "0");
    const ss = String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0");
    return `${hh}:${mm}:${ss},${String(ms % 1000).padStart(3, "0")}`;
  };
  return cues.map((c, i) => `${i + 1}\n${t(c.start)} --> ${t(c.end)}\n${c.text}\n`).join("\n");
};
