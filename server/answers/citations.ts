import type { RetrievedChunk } from "../retrieval/types";
import type { Citation } from "./events.schema";

/**
 * `[N]` markers → citations (contract §2.7). N is the 1-based position of a chunk in the context the answerer saw.
 * A marker that points at no chunk is removed from the answer, never mapped to a guess. Only the answerer writes
 * markers: source text reaches an answer or a model's context through `neutraliseBrackets`.
 */

const PREVIEW_CHARS = 200;
/** `[3]`, and lists models write as `[1, 2]` or `[1,2,5]`. */
const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/**
 * A source's own bracketed numbers: literature references such as `[2]`, `[1, 4]`, `[3–5]` or `[12; 14]`. Every
 * `[N]` in an answer is resolved against the passages the answerer saw, so one of these left in a quoted sentence
 * (or in a passage a model copies from) would become a citation of an unrelated document.
 */
const SOURCE_BRACKETS = /\[(\s*\d[\d\s,;\u2013\u2014-]*)\]/g;

/**
 * Source text as it may appear in an answer or in a model's context: its bracketed numbers become parenthesised,
 * `[2]` → `(2)`, so they stay readable (and the sentence checkable against its page) but never read as markers.
 */
export const neutraliseBrackets = (text: string) => text.replace(SOURCE_BRACKETS, "($1)");

export const citationFor = (index: number, chunk: RetrievedChunk): Citation => {
  const section = chunk.metadata.section_number;
  const preview = chunk.text.replace(/\s+/g, " ").trim();
  return {
    index,
    fileId: chunk.sourceId,
    fileName: chunk.fileName,
    pageNumber: chunk.pageNumber,
    sectionNumber: typeof section === "number" && Number.isInteger(section) ? section : null,
    elementId: chunk.elementIds[0] ?? null,
    textPreview: preview.length > PREVIEW_CHARS ? `${preview.slice(0, PREVIEW_CHARS - 1)}…` : preview,
    imageBase64: null,
  };
};

/** The rich form `[N](file_id|pX|sY|eZ|fNAME)`; parts that are unknown are left out. */
export const richMarker = (c: Citation) => {
  const parts = [
    c.fileId ?? "",
    c.pageNumber !== null ? `p${c.pageNumber}` : null,
    c.sectionNumber !== null ? `s${c.sectionNumber}` : null,
    c.elementId ? `e${c.elementId}` : null,
    c.fileName ? `f${c.fileName.replace(/[|()]/g, "_")}` : null,
  ].filter((p) => p !== null);
  return `[${c.index}](${parts.join("|")})`;
};

const valid = (n: number, chunks: RetrievedChunk[]) => Number.isInteger(n) && n >= 1 && n <= chunks.length;

/** Rewrites the markers of one `[…]` group: valid ones as `[N]` (or rich), invalid ones dropped. */
const rewriteGroup = (group: string, chunks: RetrievedChunk[], markup: boolean) =>
  group
    .split(",")
    .map((n) => Number(n.trim()))
    .filter((n) => valid(n, chunks))
    .map((n) => (markup ? richMarker(citationFor(n, chunks[n - 1]!)) : `[${n}]`))
    .join("");

/** The final answer text and its citations, one per distinct valid marker, ordered by index. */
export const resolveCitations = (
  text: string,
  chunks: RetrievedChunk[],
  { markup = false }: { markup?: boolean } = {},
): { answer: string; citations: Citation[] } => {
  const cited = new Set<number>();
  const answer = text
    .replace(MARKER, (_m, group: string) => {
      for (const n of group.split(",").map((x) => Number(x.trim()))) if (valid(n, chunks)) cited.add(n);
      return rewriteGroup(group, chunks, markup);
    })
    // A removed marker leaves a space before punctuation or a double space behind.
    .replace(/[ \t]+([.,;:!?])/g, "$1")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
  const citations = [...cited].sort((a, b) => a - b).map((n) => citationFor(n, chunks[n - 1]!));
  return { answer, citations };
};

/**
 * The same rules on a stream of text: text inside a possible marker is held back until the marker completes (then
 * it is let through and reported, or dropped when it points at nothing) or turns out to be ordinary text.
 */
export class MarkerFilter {
  private held = "";
  private readonly seen = new Set<number>();

  constructor(private readonly chunks: RetrievedChunk[]) {}

  /** Text safe to show now, and the indexes cited for the first time. */
  push(delta: string): { text: string; cited: number[] } {
    let out = "";
    const cited: number[] = [];
    for (const ch of delta) {
      if (!this.held) {
        if (ch === "[") this.held = "[";
        else out += ch;
        continue;
      }
      this.held += ch;
      if (ch === "]") {
        const group = this.held.slice(1, -1);
        if (/^\d{1,3}(\s*,\s*\d{1,3})*$/.test(group)) {
          for (const n of group.split(",").map((x) => Number(x.trim()))) {
            if (!valid(n, this.chunks) || this.seen.has(n)) continue;
            this.seen.add(n);
            cited.push(n);
          }
          out += rewriteGroup(group, this.chunks, false);
        } else out += this.held;
        this.held = "";
      } else if (!/^\[[\d\s,]{0,24}$/.test(this.held)) {
        // Not a marker after all; a `[` here may open the next one.
        out += ch === "[" ? this.held.slice(0, -1) : this.held;
        this.held = ch === "[" ? "[" : "";
      }
    }
    return { text: out, cited };
  }

  flush(): string {
    const rest = this.held;
    this.held = "";
    return rest;
  }
}
