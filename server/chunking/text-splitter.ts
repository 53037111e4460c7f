import { countTokens, sliceTokens } from "./tokens";

/**
 * Recursive separator splitting: try the coarsest separator first (paragraphs), fall back to finer ones (lines,
 * sentences, words) only for pieces still too long, then pack pieces back up to the size with an overlap made of
 * whole pieces. A word is cut only when it alone is longer than the size.
 */

export type LengthFn = (text: string) => number;

/** Marker for "split after sentence-ending punctuation" in a separator list. */
export const SENTENCE = Symbol("sentence");
export type Separator = string | typeof SENTENCE;

export const charLength: LengthFn = (text) => text.length;
/** cl100k_base tokens, as the embedding model counts them. */
export const tokenLength: LengthFn = countTokens;

export const defaultSeparators = (chunkSeparator: string): Separator[] => {
  const list: Separator[] = [chunkSeparator, "\n\n", "\n", SENTENCE, " "];
  return list.filter((s, i) => s === SENTENCE || (s !== "" && list.indexOf(s) === i));
};

const splitOn = (text: string, separator: Separator): string[] =>
  separator === SENTENCE ? text.split(/(?<=[.!?。！？;])\s+/u) : text.split(separator);

const contains = (text: string, separator: Separator): boolean =>
  separator === SENTENCE ? /[.!?。！？;]\s/u.test(text) : text.includes(separator);

const joinerOf = (separator: Separator): string => (separator === SENTENCE ? " " : separator);

type Options = { chunkSize: number; chunkOverlap: number; length: LengthFn };

/** Pack pieces up to the size; each new chunk starts with the previous chunk's last pieces that fit the overlap. */
export const mergePieces = (
  pieces: string[],
  joiner: string,
  { chunkSize, chunkOverlap, length }: Options,
): string[] => {
  const out: string[] = [];
  const sepLength = length(joiner);
  const lengths = pieces.map(length);
  let start = 0;
  let total = 0;
  for (let i = 0; i < pieces.length; i++) {
    const size = lengths[i] ?? 0;
    if (i > start && total + sepLength + size > chunkSize) {
      out.push(pieces.slice(start, i).join(joiner));
      // Drop pieces from the front until what is left fits the overlap and leaves room for the next piece.
      while (start < i && (total > chunkOverlap || total + sepLength + size > chunkSize)) {
        total -= (lengths[start] ?? 0) + (i - start > 1 ? sepLength : 0);
        start++;
      }
    }
    total += size + (i > start ? sepLength : 0);
  }
  if (start < pieces.length) out.push(pieces.slice(start).join(joiner));
  return out;
};

/** Last resort for a single word longer than the size: cut it into size-long slices. */
const hardSplit = (text: string, { chunkSize, length }: Options): string[] => {
  if (length === tokenLength) return sliceTokens(text, chunkSize);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += chunkSize) out.push(text.slice(i, i + chunkSize));
  return out;
};

export const splitText = ({
  text,
  separators,
  ...options
}: Options & { text: string; separators: Separator[] }): string[] => {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (options.length(trimmed) <= options.chunkSize) return [trimmed];
  const index = separators.findIndex((s) => contains(trimmed, s));
  if (index < 0) return hardSplit(trimmed, options);
  const separator = separators[index] ?? " ";
  const rest = separators.slice(index + 1);
  const out: string[] = [];
  let fitting: string[] = [];
  for (const piece of splitOn(trimmed, separator)
    .map((p) => p.trim())
    .filter(Boolean)) {
    if (options.length(piece) <= options.chunkSize) {
      fitting.push(piece);
      continue;
    }
    if (fitting.length > 0) out.push(...mergePieces(fitting, joinerOf(separator), options));
    fitting = [];
    out.push(...splitText({ text: piece, separators: rest, ...options }));
  }
  if (fitting.length > 0) out.push(...mergePieces(fitting, joinerOf(separator), options));
  return out;
};

/**
 * The end of a text, at most `limit` long, starting at a sentence or word boundary (what a new chunk repeats of the
 * previous one). Empty when not even one word fits.
 */
export const tailOf = (text: string, limit: number, length: LengthFn): string => {
  if (limit <= 0) return "";
  if (length(text) <= limit) return text;
  const words = text.split(/\s+/);
  let start = words.length;
  let total = 0;
  while (start > 0) {
    const next = length(words[start - 1] ?? "") + (start < words.length ? length(" ") : 0);
    if (total + next > limit) break;
    total += next;
    start--;
  }
  return words.slice(start).join(" ");
};
