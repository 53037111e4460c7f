import { Tiktoken } from "js-tiktoken/lite";
import cl100kBase from "js-tiktoken/ranks/cl100k_base";

/**
 * Real model tokens (cl100k_base: the tokenizer of text-embedding-3-* and gpt-4-class models), so a token chunk
 * size means what the embedding model will count. The ranks ship inside js-tiktoken: nothing is downloaded.
 * Built on first use (about half a second), then shared.
 */

let encoder: Tiktoken | null = null;
const tokenizer = () => (encoder ??= new Tiktoken(cl100kBase));

export const TOKENIZER_NAME = "cl100k_base";

/**
 * js-tiktoken's BPE is quadratic in the length of one pre-token, and a pre-token is any run of letters: a line of
 * 3,000 "=" or 3,000 characters of Japanese without punctuation take seconds to minutes. Runs longer than this are
 * encoded slice by slice, which costs at most a token or two per slice against the exact count.
 */
const MAX_RUN = 64;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, "gu");

export const encodeTokens = (text: string): number[] => {
  const enc = tokenizer();
  const out: number[] = [];
  // A loop, not push(...tokens): a long text has more tokens than a call may take arguments.
  const append = (part: string) => {
    for (const token of enc.encode(part)) out.push(token);
  };
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const index = match.index ?? 0;
    if (index > last) append(text.slice(last, index));
    const chars = [...match[0]];
    for (let i = 0; i < chars.length; i += MAX_RUN) append(chars.slice(i, i + MAX_RUN).join(""));
    last = index + match[0].length;
  }
  if (last < text.length) append(text.slice(last));
  return out;
};

export const countTokens = (text: string): number => (text ? encodeTokens(text).length : 0);

/**
 * Cuts a text into pieces of at most `size` tokens. A cut that would fall inside a multi-byte character moves back
 * to the previous token, so no piece ends or starts with half a character.
 */
export const sliceTokens = (text: string, size: number): string[] => {
  const enc = tokenizer();
  const tokens = encodeTokens(text);
  const out: string[] = [];
  let start = 0;
  while (start < tokens.length) {
    let end = Math.min(tokens.length, start + size);
    let piece = enc.decode(tokens.slice(start, end));
    while (end < tokens.length && end - start > 1 && piece.endsWith("\uFFFD")) {
      end -= 1;
      piece = enc.decode(tokens.slice(start, end));
    }
    const trimmed = piece.trim();
    if (trimmed) out.push(trimmed);
    start = end;
  }
  return out;
};
