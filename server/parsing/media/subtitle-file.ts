import { AppError } from "@/server/errors";
import { decodeText } from "@/server/parsing/encoding";
import type { PartitionResult } from "@/server/parsing/types";
import { parseWebVtt } from "./subtitles";
import { transcriptElements } from "./transcript";

/**
 * A subtitle file (.vtt or .srt) on its own: the transcript of a recording, as paragraphs with their times. This is
 * also the way in for a video whose captions cannot be fetched (a YouTube video without captions).
 */
export const partitionSubtitleFile = ({
  bytes,
  fileType,
}: {
  bytes: Uint8Array;
  fileType: string;
}): PartitionResult => {
  const { text, encoding } = decodeText({ bytes });
  const cues = parseWebVtt(text);
  if (cues.length === 0) throw new AppError("UNPROCESSABLE", `The .${fileType} file holds no timed cues`);
  const elements = transcriptElements(
    cues.map((cue) => ({ ...cue, language: null })),
    { source: "subtitles", encoding },
  );
  return { elements, totalPages: null, warnings: [] };
};
