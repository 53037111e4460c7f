import { classifyParagraph, isBulleted, stripBullet } from "./classify-text";
import { decodeText, normalizeNewlines } from "./encoding";
import type { ParsedElement, PartitionResult } from "./types";

type Paragraph = { kind: "list" | "text"; text: string };

const joinLines = (lines: string[]): string =>
  lines
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join(" ");

/**
 * One blank-line-separated block into paragraphs: every bulleted line starts a list item (lines after it continue
 * it); lines before the first bullet stay one paragraph, so "Important points:" stays apart from its bullets.
 */
const splitBlock = (lines: string[]): Paragraph[] => {
  if (!lines.some(isBulleted)) return [{ kind: "text", text: joinLines(lines) }];
  const out: Paragraph[] = [];
  let current: { kind: "list" | "text"; lines: string[] } | null = null;
  const flush = () => {
    if (!current) return;
    const text =
      current.kind === "list"
        ? joinLines([stripBullet(current.lines[0] ?? ""), ...current.lines.slice(1)])
        : joinLines(current.lines);
    if (text) out.push({ kind: current.kind, text });
    current = null;
  };
  for (const line of lines) {
    if (isBulleted(line)) {
      flush();
      current = { kind: "list", lines: [line] };
    } else if (current) {
      current.lines.push(line);
    } else {
      current = { kind: "text", lines: [line] };
    }
  }
  flush();
  return out;
};

/** Paragraphs of a plain-text document: blocks split on blank lines, then list items split out. */
export const textToParagraphs = (text: string): Paragraph[] => {
  const paragraphs: Paragraph[] = [];
  let block: string[] = [];
  const flush = () => {
    if (block.length > 0) paragraphs.push(...splitBlock(block));
    block = [];
  };
  for (const line of normalizeNewlines(text).split("\n")) {
    if (line.trim() === "") flush();
    else block.push(line);
  }
  flush();
  return paragraphs;
};

export const partitionPlainText = (text: string): ParsedElement[] => {
  const paragraphs = textToParagraphs(text);
  return paragraphs.map((p, i) => ({
    type:
      p.kind === "list" ? "ListItem" : classifyParagraph({ text: p.text, hasFollowingText: i < paragraphs.length - 1 }),
    text: p.text,
    pageNumber: null,
  }));
};

export const partitionText = ({ bytes }: { bytes: Uint8Array }): PartitionResult => {
  const { text, encoding } = decodeText({ bytes });
  const elements = partitionPlainText(text).map((e) => ({ ...e, metadata: { encoding } }));
  return { elements, totalPages: null, warnings: [] };
};
