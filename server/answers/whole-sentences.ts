import { splitSentences } from "../chunking/sentences";

/**
 * The whole sentences a chunk holds, for the local answerer to quote. A chunk is cut by size, so its first words may
 * be the end of a sentence it does not hold (an overlap, a split after `;`) and its last words the start of one.
 * Sentence boundaries therefore come from the text the chunk was cut from — its elements — when they are known: a
 * sentence of an element is quotable when the chunk holds all of it. Without the elements, the chunk's own text is
 * split and a first piece that does not open like a sentence, or a last piece that does not close like one, is left
 * out. Headings (Title elements) are not sentences and are never quoted.
 */

export type SourceElement = { text: string; type: string };

const normal = (text: string) => text.replace(/\s+/g, " ").trim();

/** An element's sentences, split once however many of the chunks read were cut from it (a long element: many). */
const splitOnce = new WeakMap<SourceElement, { sentence: string; normal: string }[]>();
const sentencesOf = (element: SourceElement) => {
  let sentences = splitOnce.get(element);
  if (!sentences) {
    sentences = splitSentences(element.text).map((sentence) => ({ sentence, normal: normal(sentence) }));
    splitOnce.set(element, sentences);
  }
  return sentences;
};

/** Opens like a sentence: not in lowercase, not with punctuation that continues one (`, ; : ) ]`). */
const opensSentence = (text: string) => !/^[\p{Ll},;:)\]}\u2013\u2014-]/u.test(text);
/** Closes like a sentence: terminal punctuation, optionally followed by closing quotes or brackets. */
const closesSentence = (text: string) => /[.!?\u3002\uff01\uff1f]["'\u201d\u2019)\]]*$/u.test(text);

const fromChunkText = (text: string): string[] => {
  const pieces = splitSentences(text);
  return pieces.filter((piece, i) => {
    if (i === 0 && !opensSentence(piece)) return false;
    return i < pieces.length - 1 || closesSentence(piece);
  });
};

/**
 * The chunk's whole sentences in reading order. `elements` are the chunk's source elements in document order (from
 * its `elementIds`); when none of them is known the chunk's own text decides.
 */
export const wholeSentences = (chunkText: string, elements: SourceElement[] = []): string[] => {
  if (!elements.length) return fromChunkText(chunkText);
  const held = normal(chunkText);
  const out: string[] = [];
  for (const element of elements) {
    if (element.type === "Title") continue;
    for (const { sentence, normal: text } of sentencesOf(element)) if (held.includes(text)) out.push(sentence);
  }
  return out;
};
