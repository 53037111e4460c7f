import { kmeans } from "ml-kmeans";

/**
 * A Gaussian mixture with diagonal covariances fitted by expectation-maximisation, and its Bayesian information
 * criterion (BIC = -2 log L + p ln n, p = k·2d + k − 1): RAPTOR picks the number of clusters with the lowest BIC
 * (Sarthi et al. 2024, "RAPTOR: Recursive Abstractive Processing for Tree-Organized Retrieval", §3). Means start
 * from seeded k-means++, so a fit is deterministic. Points are assigned to their most probable component (RAPTOR
 * also lets a point join every component above a probability threshold; one parent per node keeps the tree a tree
 * and the counts plain).
 */

const MAX_ITERATIONS = 60;
const VARIANCE_FLOOR = 1e-4;
const LOG_2PI = Math.log(2 * Math.PI);

export type GmmFit = { k: number; labels: number[]; bic: number };

export const fitGmm = (points: number[][], k: number, seed: number): GmmFit => {
  const n = points.length;
  const d = points[0]!.length;
  const init = kmeans(points, k, { seed, initialization: "kmeans++", maxIterations: 50 });
  const means = init.centroids.map((c) => [...c]);
  const vars = means.map(() => new Array<number>(d).fill(0));
  const weights = new Array<number>(k).fill(1 / k);
  // Start each component's variance from its k-means members (the global variance when it has none).
  const counts = new Array<number>(k).fill(0);
  init.clusters.forEach((c, i) => {
    counts[c]!++;
    for (let j = 0; j < d; j++) vars[c]![j]! += (points[i]![j]! - means[c]![j]!) ** 2;
  });
  for (let c = 0; c < k; c++)
    for (let j = 0; j < d; j++) vars[c]![j] = Math.max(VARIANCE_FLOOR, vars[c]![j]! / Math.max(1, counts[c]!));

  const resp = Array.from({ length: n }, () => new Float64Array(k));
  let logLik = -Infinity;
  for (let iter = 0; iter < MAX_ITERATIONS; iter++) {
    // E step: responsibilities, with log-sum-exp for stability.
    let total = 0;
    const consts = means.map(
      (_, c) => Math.log(weights[c]!) - 0.5 * vars[c]!.reduce((s, v) => s + Math.log(v) + LOG_2PI, 0),
    );
    for (let i = 0; i < n; i++) {
      const p = points[i]!;
      let max = -Infinity;
      for (let c = 0; c < k; c++) {
        let q = 0;
        const m = means[c]!;
        const v = vars[c]!;
        for (let j = 0; j < d; j++) q += (p[j]! - m[j]!) ** 2 / v[j]!;
        const l = consts[c]! - 0.5 * q;
        resp[i]![c] = l;
        if (l > max) max = l;
      }
      let sum = 0;
      for (let c = 0; c < k; c++) sum += Math.exp(resp[i]![c]! - max);
      const lse = max + Math.log(sum);
      total += lse;
      for (let c = 0; c < k; c++) resp[i]![c] = Math.exp(resp[i]![c]! - lse);
    }
    // M step.
    for (let c = 0; c < k; c++) {
      let nk = 0;
      const mean = new Array<number>(d).fill(0);
      for (let i = 0; i < n; i++) {
        const r = resp[i]![c]!;
        nk += r;
        for (let j = 0; j < d; j++) mean[j]! += r * points[i]![j]!;
      }
      nk = Math.max(nk, 1e-9);
      for (let j = 0; j < d; j++) mean[j]! /= nk;
      const v = new Array<number>(d).fill(0);
      for (let i = 0; i < n; i++) {
        const r = resp[i]![c]!;
        for (let j = 0; j < d; j++) v[j]! += r * (points[i]![j]! - mean[j]!) ** 2;
      }
      means[c] = mean;
      vars[c] = v.map((x) => Math.max(VARIANCE_FLOOR, x / nk));
      weights[c] = Math.max(nk / n, 1e-12);
    }
    const converged = Math.abs(total - logLik) < 1e-4 * n;
    logLik = total;
    if (converged) break;
  }
  const labels = resp.map((r) => {
    let best = 0;
    for (let c = 1; c < k; c++) if (r[c]! > r[best]!) best = c;
    return best;
  });
  const params = k * 2 * d + (k - 1);
  return { k, labels, bic: -2 * logLik + params * Math.log(n) };
};

/** The fit with the lowest BIC among k = 1 … maxK (at least `minK` components). */
export const bestGmm = (points: number[][], { minK, maxK, seed }: { minK: number; maxK: number; seed: number }) => {
  let best: GmmFit | null = null;
  for (let k = minK; k <= maxK; k++) {
    const fit = fitGmm(points, k, seed);
    if (!best || fit.bic < best.bic) best = fit;
  }
  return best!;
};
