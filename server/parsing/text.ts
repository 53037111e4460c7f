import { classifyParagraph, isBulleted, stripBullet } from "./classify-text";
import { decodeText, decodeTextStream, normalizeNewlines, type ByteSource } from "./encoding";
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

/** Paragraphs of lines fed one at a time: blocks split on blank lines, then list items split out. */
const paragraphSplitter = () => {
  let block: string[] = [];
  const flush = (): Paragraph[] => {
    const out = block.length > 0 ? splitBlock(block) : [];
    block = [];
    return out;
  };
  return {
    line: (line: string): Paragraph[] => {
      if (line.trim() === "") return flush();
      block.push(line);
      return [];
    },
    end: flush,
  };
};

/** Paragraphs of a plain-text document: blocks split on blank lines, then list items split out. */
export const textToParagraphs = (text: string): Paragraph[] => {
  const splitter = paragraphSplitter();
  const paragraphs: Paragraph[] = [];
  for (const line of normalizeNewlines(text).split("\n")) paragraphs.push(...splitter.line(line));
  paragraphs.push(...splitter.end());
  return paragraphs;
};

const toElement = (p: Paragraph, hasFollowingText: boolean): ParsedElement => ({
  type: p.kind === "list" ? "ListItem" : classifyParagraph({ text: p.text, hasFollowingText }),
  text: p.text,
  pageNumber: null,
});

export const partitionPlainText = (text: string): ParsedElement[] => {
  const paragraphs = textToParagraphs(text);
  return paragraphs.map((p, i) => toElement(p, i < paragraphs.length - 1));
};

export const partitionText = ({ bytes }: { bytes: Uint8Array }): PartitionResult => {
  const { text, encoding } = decodeText({ bytes });
  const elements = partitionPlainText(text).map((e) => ({ ...e, metadata: { encoding } }));
  return { elements, totalPages: null, warnings: [] };
};

/**
 * The lines of decoded text pieces, as `normalizeNewlines(whole).split("\n")` gives them: a "\r\n" cut between two
 * pieces is joined first, and the text after the last newline is the last line.
 */
export async function* linesOf(
  chunks: AsyncIterable<string>,
  normalize: (text: string) => string = normalizeNewlines,
): AsyncGenerator<string> {
  let carry = "";
  for await (const chunk of chunks) {
    let text = carry + chunk;
    // A "\r" at the end may be the first half of "\r\n": it waits for the next piece.
    const cut = text.endsWith("\r") ? 1 : 0;
    carry = cut ? "\r" : "";
    text = normalize(cut ? text.slice(0, -1) : text);
    const lines = text.split("\n");
    carry = lines.pop()! + carry;
    yield* lines;
  }
  yield* normalize(carry).split("\n");
}

/**
 * A text file streamed a chunk at a time: the elements of partitionText, handed to `emit` one by one in order (one
 * paragraph is held back: whether text follows it decides its type).
 */
export const partitionTextStream = async (
  { source }: { source: ByteSource },
  emit: (element: ParsedElement) => Promise<void>,
): Promise<Omit<PartitionResult, "elements">> => {
  const { encoding, chunks } = await decodeTextStream({ source });
  const splitter = paragraphSplitter();
  let held: Paragraph | null = null;
  const add = async (paragraphs: Paragraph[]) => {
    for (const p of paragraphs) {
      if (held) await emit({ ...toElement(held, true), metadata: { encoding } });
      held = p;
    }
  };
  for await (const line of linesOf(chunks)) await add(splitter.line(line));
  await add(splitter.end());
  const last = held as Paragraph | null;
  if (last) await emit({ ...toElement(last, false), metadata: { encoding } });
  return { totalPages: null, warnings: [] };
};
