import { UMAP } from "umap-js";
import { bestGmm } from "./gmm";
import { cosine, normalize, seededRandom } from "./vectors";

/**
 * Clustering of one tree level: the nodes' vectors (in reading order) into groups of at most MAX_CLUSTER_SIZE, each
 * group summarised into one node of the next level. Two methods, compared by `BENCH_ONLY=raptor npm run bench`
 * (bench/raptor.ts) on SciFact train documents; "gmm" is the one builds use (figures and reasons in the README,
 * "RAPTOR"):
 * - "gmm", the RAPTOR paper's: UMAP down to a few dimensions, a Gaussian mixture whose number of components has the
 *   lowest BIC, and the same again inside every cluster still larger than the limit (the paper's local clustering).
 * - "watershed": O(N) in reading order: consecutive nodes stay together until the similarity of a neighbouring pair
 *   is a local minimum (a watershed line) or the group is full. Fast, but it only groups what is already adjacent.
 * Both are deterministic: UMAP and k-means++ draw from a seeded generator.
 */

export type ClusterMethod = "gmm" | "watershed";

/** Children per summary at most; RAPTOR's trees average 6.7 children per parent. */
export const MAX_CLUSTER_SIZE = 10;
/** Components tried per split (k = 2 … this), lowest BIC wins. */
const MAX_COMPONENTS = 12;
/** RAPTOR reduces to 10 dimensions before fitting the mixture. */
const REDUCED_DIMENSIONS = 10;
const MAX_NEIGHBORS = 30;
/** umap-js runs 500 epochs below 10k points; 200 left the clusters of the bench as good at 40 % of the time. */
const UMAP_EPOCHS = 200;
const WATERSHED_MIN_SIZE = 3;
/** Clusters a small split aims at, at least (k ≤ n / this). */
const MIN_TARGET_SIZE = 4;
const SEED = 14;

/** UMAP of some points: n_neighbors √(n−1) as RAPTOR's global step (capped), 10 dimensions, a seeded generator. */
const reduce = (points: number[][], seed: number) => {
  const n = points.length;
  const nComponents = Math.min(REDUCED_DIMENSIONS, n - 2);
  const nNeighbors = Math.max(2, Math.min(n - 1, MAX_NEIGHBORS, Math.floor(Math.sqrt(n - 1))));
  const umap = new UMAP({ nComponents, nNeighbors, minDist: 0, nEpochs: UMAP_EPOCHS, random: seededRandom(seed) });
  return umap.fit(points);
};

/** Cuts indices (in order) into pieces of at most `size`: the fallback when a mixture leaves everything in one. */
const slices = (indices: number[], size: number) => {
  const parts = Math.ceil(indices.length / size);
  const per = Math.ceil(indices.length / parts);
  return Array.from({ length: parts }, (_, i) => indices.slice(i * per, (i + 1) * per)).filter((p) => p.length);
};

/**
 * k tried for a split of n points: a small set goes straight to clusters of MIN…MAX_CLUSTER_SIZE (k = n/10 … n/4);
 * a large one gets 2 … MAX_COMPONENTS components first and each is split again (the paper's global, then local).
 */
const componentRange = (n: number) => {
  if (n <= MAX_COMPONENTS * MAX_CLUSTER_SIZE) {
    const minK = Math.max(2, Math.ceil(n / MAX_CLUSTER_SIZE));
    return { minK, maxK: Math.max(minK, Math.min(MAX_COMPONENTS, Math.floor(n / MIN_TARGET_SIZE))) };
  }
  return { minK: 2, maxK: MAX_COMPONENTS };
};

const clusterGmm = (vectors: number[][]): number[][] => {
  // One UMAP of the whole level (the paper runs another inside each global cluster; one is ~10× faster here and
  // the mixture still separates what it grouped, see the bench).
  const reduced = reduce(vectors.map(normalize), SEED + vectors.length);
  const split = (indices: number[], depth: number): number[][] => {
    if (indices.length <= MAX_CLUSTER_SIZE) return [indices];
    const fit = bestGmm(
      indices.map((i) => reduced[i]!),
      { ...componentRange(indices.length), seed: SEED + depth },
    );
    const groups = new Map<number, number[]>();
    fit.labels.forEach((label, i) => groups.set(label, [...(groups.get(label) ?? []), indices[i]!]));
    const parts = [...groups.values()];
    if (parts.length < 2) return slices(indices, MAX_CLUSTER_SIZE);
    return parts.flatMap((part) => split(part, depth + 1));
  };
  // Each cluster's members in reading order, clusters by their first member: a stable order for positions.
  return split(
    vectors.map((_, i) => i),
    0,
  )
    .map((c) => [...c].sort((a, b) => a - b))
    .sort((a, b) => a[0]! - b[0]!);
};

const clusterWatershed = (vectors: number[][]): number[][] => {
  const n = vectors.length;
  const sims = Array.from({ length: Math.max(0, n - 1) }, (_, i) => cosine(vectors[i]!, vectors[i + 1]!));
  const clusters: number[][] = [];
  let current: number[] = [];
  for (let i = 0; i < n; i++) {
    current.push(i);
    if (i === n - 1) break;
    const here = sims[i]!;
    const basin = here <= (sims[i - 1] ?? Infinity) && here <= (sims[i + 1] ?? Infinity);
    if (current.length >= MAX_CLUSTER_SIZE || (current.length >= WATERSHED_MIN_SIZE && basin)) {
      clusters.push(current);
      current = [];
    }
  }
  if (current.length) clusters.push(current);
  return clusters;
};

/** Groups of node indices; a level of MAX_CLUSTER_SIZE nodes or fewer is one group (the root comes next). */
export const clusterLevel = (vectors: number[][], method: ClusterMethod = "gmm"): number[][] => {
  if (vectors.length === 0) return [];
  if (vectors.length <= MAX_CLUSTER_SIZE) return [vectors.map((_, i) => i)];
  return method === "gmm" ? clusterGmm(vectors) : clusterWatershed(vectors);
};
