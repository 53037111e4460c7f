import { readFile } from "node:fs/promises";
import path from "node:path";
import { runTool } from "@/server/parsing/system-tools";
import { isToolTimeout, mediaError, toolFailureDetail, safeInputArgs } from "./ffmpeg";

/** One part of the extracted audio: an MP3 file and where it sits in the recording (seconds). */
export type AudioChunk = { file: string; start: number; end: number };

/** Speech needs no more: mono 16 kHz is what Whisper resamples to anyway, 32 kb/s MP3 keeps 10 min at 2.4 MB. */
const AUDIO_ARGS = [
  "-vn",
  "-sn",
  "-dn",
  "-map_metadata",
  "-1",
  "-ac",
  "1",
  "-ar",
  "16000",
  "-c:a",
  "libmp3lame",
  "-b:a",
  "32k",
];

/** Measured ~0.3 s per minute of audio on one core; the timeout leaves room for a loaded machine and slow demuxing. */
const extractTimeoutMs = (seconds: number) => 60_000 + seconds * 100;

/** Providers refuse audio under 0.1 s; a sliver that short at the end of a file holds no words. */
const MIN_CHUNK_SECONDS = 0.1;

const parseSegmentList = (csv: string, dir: string): AudioChunk[] =>
  csv
    .split(/\r?\n/)
    .filter((line) => line.trim())
    .map((line) => {
      const [name, start, end] = line.split(",");
      return { file: path.join(dir, path.basename(name ?? "")), start: Number(start), end: Number(end) };
    })
    .filter((c) => Number.isFinite(c.start) && Number.isFinite(c.end));

/**
 * Extracts one audio stream as mono 16 kHz MP3 parts of about `chunkSeconds` at most, in one ffmpeg pass.
 * The parts are of equal length, so a file just over a multiple of the limit does not end in a sliver of audio.
 */
export const extractAudioChunks = async (
  ffmpeg: string,
  inputPath: string,
  {
    dir,
    audioOrdinal,
    duration,
    maxSeconds,
    chunkSeconds,
    ext,
    fileName,
  }: {
    dir: string;
    audioOrdinal: number;
    duration: number | null;
    /** Never read past this (bounds files whose length the container does not state). */
    maxSeconds: number;
    chunkSeconds: number;
    ext: string;
    fileName: string;
  },
): Promise<AudioChunk[]> => {
  const length = duration ?? maxSeconds;
  const parts = Math.max(1, Math.ceil(length / chunkSeconds));
  // ffmpeg cuts at the first frame past each boundary; a little slack keeps that rounding from adding a last sliver.
  const segmentSeconds = duration === null ? chunkSeconds : duration / parts + (parts > 1 ? 0.2 : 0);
  const listFile = path.join(dir, "chunks.csv");
  try {
    await runTool(
      ffmpeg,
      [
        "-nostdin",
        "-hide_banner",
        "-v",
        "error",
        "-y",
        ...safeInputArgs(),
        "-i",
        inputPath,
        "-map",
        `0:a:${audioOrdinal}`,
        ...AUDIO_ARGS,
        "-t",
        String(maxSeconds),
        "-f",
        "segment",
        "-segment_time",
        segmentSeconds.toFixed(3),
        "-segment_list",
        listFile,
        "-segment_list_type",
        "csv",
        "-reset_timestamps",
        "1",
        path.join(dir, "chunk%03d.mp3"),
      ],
      {
        timeoutMs: extractTimeoutMs(length),
        maxOutputBytes: 1024 * 1024,
        what: `Extracting the audio of the .${ext} file`,
      },
    );
  } catch (error) {
    if (isToolTimeout(error)) throw error;
    throw mediaError(
      `The audio of the .${ext} file could not be decoded (${toolFailureDetail(error, inputPath, fileName)})`,
    );
  }
  const csv = await readFile(listFile, "utf8").catch(() => "");
  return parseSegmentList(csv, dir).filter((c) => c.end - c.start >= MIN_CHUNK_SECONDS);
};
