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

/**
 * Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. With a finite `max` only the band of
 * cells within `max` of the diagonal is computed (O(length × max) instead of O(length²)).
 */
export const editDistance = (a: string, b: string, max = Infinity) => {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const band = Number.isFinite(max) ? max : Math.max(a.length, b.length);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => (j <= band ? j : Infinity));
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(Infinity);
    if (i <= band) row[0] = i;
    let best = row[0]!;
    for (let j = Math.max(1, i - band); j <= Math.min(b.length, i + band); j++) {
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
  const push = (map: Map<string, string[]>, key: string, value: string) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const byWord = new Map<string, string[]>();
  for (const key of sorted) for (const w of new Set(key.split(" "))) push(byWord, w, key);
  const seen = new Set<string>();
  const add = (a: string, b: string, reason: Candidate["reason"]) => {
    const [x, y] = a < b ? [a, b] : [b, a];
    const id = `${x}\u0000${y}`;
    if (x === y || seen.has(id)) return;
    seen.add(id);
    out.push({ a: x, b: y, reason });
  };
  // Spelling: a key is compared only with keys of the same first letter and a length within its allowed edits.
  const buckets = new Map<string, string[]>();
  for (const key of sorted) push(buckets, `${key[0] ?? ""}\u0000${key.length}`, key);
  const digitsOf = new Map(sorted.map((k) => [k, digits(k)]));
  for (const a of sorted) {
    const max = allowedEdits(a.length);
    for (let length = a.length; max > 0 && length <= a.length + max; length++) {
      for (const b of buckets.get(`${a[0] ?? ""}\u0000${length}`) ?? []) {
        if (b <= a && length === a.length) continue; // each pair once
        if (digitsOf.get(a) !== digitsOf.get(b)) continue;
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
