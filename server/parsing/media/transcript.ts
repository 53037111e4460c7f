import type { ParsedElement } from "@/server/parsing/types";

/** A transcribed segment or a subtitle cue, in seconds from the start of the recording. */
export type TimedText = { start: number; end: number; text: string; language: string | null };

/**
 * Whisper segments and subtitle cues are a line or a sentence each: too small to retrieve on their own. They are
 * joined into paragraphs, which end where the speaker pauses, when the paragraph reaches ~500 characters, or at the
 * end of a sentence once it has 300.
 */
const MAX_PAUSE_SECONDS = 1.5;
const MAX_PARAGRAPH_CHARS = 500;
const SENTENCE_PARAGRAPH_CHARS = 300;
const SENTENCE_END_RE = /[.!?…。！？]["'»”’)\]]*$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "HH:MM:SS.mmm" (hours keep growing past 99 rather than wrapping). */
export const formatTimestamp = (totalSeconds: number): string => {
  const ms = Math.max(0, Math.round(totalSeconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

const roundMs = (n: number) => Math.round(n * 1000) / 1000;

type Paragraph = { start: number; end: number; parts: string[]; chars: number; language: string | null };

/** Paragraph elements with their times; `metadata` is added to each (source, model or track). */
export const transcriptElements = (segments: TimedText[], metadata: Record<string, unknown>): ParsedElement[] => {
  const paragraphs: Paragraph[] = [];
  let current: Paragraph | null = null;
  for (const seg of segments) {
    const text = seg.text.replace(/\s+/g, " ").trim();
    if (!text) continue;
    const breaks =
      current !== null &&
      (seg.start - current.end > MAX_PAUSE_SECONDS ||
        current.chars + 1 + text.length > MAX_PARAGRAPH_CHARS ||
        (current.chars >= SENTENCE_PARAGRAPH_CHARS && SENTENCE_END_RE.test(current.parts.at(-1)!)) ||
        (seg.language !== null && current.language !== null && seg.language !== current.language));
    if (current === null || breaks) {
      current = { start: seg.start, end: seg.end, parts: [], chars: -1, language: seg.language };
      paragraphs.push(current);
    }
    current.parts.push(text);
    current.chars += text.length + 1;
    current.end = Math.max(current.end, seg.end);
    current.language ??= seg.language;
  }
  return paragraphs.map((p) => ({
    type: "NarrativeText",
    text: p.parts.join(" "),
    pageNumber: null,
    metadata: {
      start: roundMs(p.start),
      end: roundMs(p.end),
      start_time: formatTimestamp(p.start),
      end_time: formatTimestamp(p.end),
      language: p.language,
      segment_count: p.parts.length,
      ...metadata,
    },
  }));
};
