import { decodeText, normalizeNewlines } from "./encoding";
import type { ParsedElement, PartitionResult } from "./types";

/**
 * Source code (a repository's files) as CodeSnippet elements. A file is cut where a blank line follows a line at
 * the outermost indentation (between functions, classes, top-level statements), and neighbouring pieces are joined
 * up to about 1,500 characters: small enough to retrieve, large enough to keep a function whole.
 */

const TARGET_CHARS = 1500;
/** A single piece longer than this (a generated table, a minified line) is cut at line boundaries. */
const MAX_CHARS = 4000;

const indentOf = (line: string) => line.length - line.trimStart().length;

/** Pieces of the file that end at a blank line after top-level code. */
const topLevelPieces = (lines: string[]): string[][] => {
  const pieces: string[][] = [];
  let current: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    current.push(line);
    const next = lines[i + 1];
    const blank = line.trim() === "";
    if (blank && next !== undefined && next.trim() !== "" && indentOf(next) === 0) {
      pieces.push(current);
      current = [];
    }
  }
  if (current.length) pieces.push(current);
  return pieces;
};

/** Lines of an over-long piece in runs under MAX_CHARS. */
const splitLong = (lines: string[]): string[][] => {
  const out: string[][] = [];
  let run: string[] = [];
  let size = 0;
  for (const line of lines) {
    for (let at = 0; at < Math.max(line.length, 1); at += MAX_CHARS) {
      const part = line.slice(at, at + MAX_CHARS);
      if (size + part.length > MAX_CHARS && run.length) {
        out.push(run);
        run = [];
        size = 0;
      }
      run.push(part);
      size += part.length + 1;
    }
  }
  if (run.length) out.push(run);
  return out;
};

export const partitionCode = ({ bytes, language }: { bytes: Uint8Array; language: string | null }): PartitionResult => {
  const { text, encoding } = decodeText({ bytes });
  const lines = normalizeNewlines(text).split("\n");
  const blocks: string[] = [];
  let buffer = "";
  for (const piece of topLevelPieces(lines).flatMap(splitLong)) {
    const chunk = piece.join("\n");
    if (buffer && buffer.length + chunk.length + 1 > TARGET_CHARS) {
      blocks.push(buffer);
      buffer = "";
    }
    buffer = buffer ? `${buffer}\n${chunk}` : chunk;
  }
  if (buffer) blocks.push(buffer);
  let line = 1;
  const elements: ParsedElement[] = [];
  for (const block of blocks) {
    const lineCount = block.split("\n").length;
    const trimmed = block.replace(/^\n+/, "").replace(/\s+$/, "");
    const leading = block.length - block.replace(/^\n+/, "").length;
    if (trimmed) {
      elements.push({
        type: "CodeSnippet",
        text: trimmed,
        markdown: `\`\`\`${language ?? ""}\n${trimmed}\n\`\`\``,
        pageNumber: null,
        metadata: {
          language,
          encoding,
          line_start: line + leading,
          line_end: line + leading + trimmed.split("\n").length - 1,
        },
      });
    }
    line += lineCount;
  }
  return { elements, totalPages: null, warnings: [] };
};
