/**
 * How close two extractions of the same document are, as the F1 of their word multisets (order-free, case- and
 * punctuation-insensitive). Used by tests and the bench to compare Quarry's text with a peer's (`.expected.json`).
 */

const words = (text: string): string[] =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

export const textSimilarity = (ours: string, theirs: string): number => {
  const a = words(ours);
  const b = words(theirs);
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of b) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of a) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  const precision = common / a.length;
  const recall = common / b.length;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
};

/** The text of a peer's element list (unstructured's `.expected.json`: an array of `{ text }`). */
export const peerText = (expected: unknown): string =>
  Array.isArray(expected)
    ? expected.map((e) => (e && typeof e === "object" && "text" in e ? String(e.text ?? "") : "")).join("\n")
    : "";
