/** Small vector helpers shared by the clustering methods and the extractive summarizer. */

/** A seeded generator (mulberry32): the same seed gives the same clusters on every run and every machine. */
export const seededRandom = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const dot = (a: number[], b: number[]) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

export const normalize = (v: number[]) => {
  const n = Math.sqrt(dot(v, v));
  return n > 0 ? v.map((x) => x / n) : v.map(() => 0);
};

export const cosine = (a: number[], b: number[]) => {
  const d = Math.sqrt(dot(a, a) * dot(b, b));
  return d > 0 ? dot(a, b) / d : 0;
};

/** The mean of the (unit-normalised) vectors, itself normalised: the direction a cluster points to. */
export const centroid = (vectors: number[][]) => {
  const dim = vectors[0]?.length ?? 0;
  const sum = new Array<number>(dim).fill(0);
  for (const v of vectors.map(normalize)) for (let i = 0; i < dim; i++) sum[i]! += v[i]!;
  return normalize(sum);
};

/** pgvector's text form "[0.1,0.2]" to numbers. */
export const parseVector = (text: string) => text.slice(1, -1).split(",").map(Number);
