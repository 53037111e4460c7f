/**
 * Sentences of a text, by the Unicode sentence rules (Intl.Segmenter: CJK full stops, `?!`, line ends), with the
 * common abbreviations it stops at ("Dr.", "Fig.", "e.g.", "et al.") joined back to the sentence they open, and a
 * piece that opens in lowercase joined to the sentence before it.
 */

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

// A segment ending like this is not a sentence end: a title or reference abbreviation, an initial, "e.g.".
const ABBREVIATION = new RegExp(
  "(?:^|[\\s(])(?:" +
    "Dr|Mr|Mrs|Ms|Prof|St|Sr|Jr|Mt|Gen|Col|Lt|Rev|Hon|Inc|Ltd|Co|Corp|Fig|Figs|Eq|Eqs|Sec|Ch|No|Nos|Vol|pp|" +
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|al|etc|vs|cf|approx|ca|resp|[A-Z]|[A-Za-z]\\.[A-Za-z]" +
    ")\\.$",
);

export const splitSentences = (text: string): string[] => {
  const out: string[] = [];
  let pending = "";
  let endedLine = false;
  for (const { segment } of segmenter.segment(text)) {
    const trimmed = segment.trim();
    if (!trimmed) {
      endedLine ||= segment.includes("\n");
      continue;
    }
    // A sentence that opens in lowercase continues the previous one (`"…!" replied the prince`), unless a line
    // break stands between them (list items, headings).
    const previous = out[out.length - 1];
    const continues = !pending && previous !== undefined && !endedLine && /^\p{Ll}/u.test(trimmed);
    endedLine = segment.includes("\n");
    if (continues) {
      out[out.length - 1] = `${previous} ${trimmed}`;
      continue;
    }
    pending = pending ? `${pending} ${trimmed}` : trimmed;
    // A line break ends a sentence even after an abbreviation-like word (headings, list items).
    if (ABBREVIATION.test(trimmed) && !/\n/.test(segment)) continue;
    out.push(pending);
    pending = "";
  }
  if (pending) out.push(pending);
  return out;
};
