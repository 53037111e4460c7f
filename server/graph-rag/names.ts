/**
 * Entity names compared the way duplicates are found: a normalised key (case, accents, punctuation and a leading
 * article do not count), then candidate pairs that are close by edit distance or whose words contain the other's.
 */

export const normaliseName = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .replace(/^(the|a|an) /, "");

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
export const editDistance = (a: string, b: string, max = Infinity) => {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]!);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
};

/** Edits allowed between two keys of this length: none under 6 characters (short names differ by a letter). */
const allowedEdits = (length: number) => (length < 6 ? 0 : length < 12 ? 1 : 2);

const digits = (key: string) => key.replace(/\D+/g, " ").trim();

export type Candidate = { a: string; b: string; reason: "spelling" | "contains" };

/**
 * Pairs of keys that may name the same entity: a spelling variant (within the allowed edits, same digits — "section 1"
 * and "section 2" differ) or one key's words a prefix/suffix of the other's ("curie" / "marie curie"). The second
 * kind is only a candidate for a model to judge: without one, only spelling variants are merged.
 */
export const closeCandidates = (keys: string[]): Candidate[] => {
  const out: Candidate[] = [];
  const sorted = [...new Set(keys)].sort();
  const byWord = new Map<string, string[]>();
  for (const key of sorted) for (const w of new Set(key.split(" "))) byWord.set(w, [...(byWord.get(w) ?? []), key]);
  const seen = new Set<string>();
  const add = (a: string, b: string, reason: Candidate["reason"]) => {
    const [x, y] = a < b ? [a, b] : [b, a];
    const id = `${x}\u0000${y}`;
    if (x === y || seen.has(id)) return;
    seen.add(id);
    out.push({ a: x, b: y, reason });
  };
  // Spelling: keys of similar length sharing the first letter (a bucket keeps this far from n²).
  const buckets = new Map<string, string[]>();
  for (const key of sorted) buckets.set(key[0] ?? "", [...(buckets.get(key[0] ?? "") ?? []), key]);
  for (const bucket of buckets.values()) {
    for (let i = 0; i < bucket.length; i++) {
      for (let j = i + 1; j < bucket.length; j++) {
        const [a, b] = [bucket[i]!, bucket[j]!];
        const max = allowedEdits(Math.min(a.length, b.length));
        if (max === 0 || Math.abs(a.length - b.length) > max || digits(a) !== digits(b)) continue;
        if (editDistance(a, b, max) <= max) add(a, b, "spelling");
      }
    }
  }
  // Contains: a shorter key whose words start or end a longer one (words of 4+ letters, so "of" links nothing).
  for (const key of sorted) {
    const words = key.split(" ");
    if (words.some((w) => w.length < 4) || words.length > 3) continue;
    for (const other of byWord.get(words[0]!) ?? []) {
      if (other.length <= key.length || !(other.startsWith(`${key} `) || other.endsWith(` ${key}`))) continue;
      add(key, other, "contains");
    }
    for (const other of byWord.get(words.at(-1)!) ?? []) {
      if (other.length > key.length && other.endsWith(` ${key}`)) add(key, other, "contains");
    }
  }
  return out;
};

/** Union-find over keys: `find` gives a key's representative. */
export const unionFind = () => {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    const p = parent.get(k);
    if (!p || p === k) return k;
    const root = find(p);
    parent.set(k, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(rb, ra);
  };
  return { find, union };
};
