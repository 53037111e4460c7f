import { clusterLevel, type ClusterMethod } from "@/server/raptor/cluster";
import { cosine, normalize } from "@/server/raptor/vectors";
import { getEmbedder } from "@/server/providers/embedding";
import { loadSciFact } from "./scifact";

/**
 * `BENCH_ONLY=raptor`: the two clustering methods of server/raptor/cluster.ts on SciFact train documents (one vector
 * per document, title and abstract, with the configured embedder), at BENCH_RAPTOR_DOCS documents (default 1000 and
 * all 5,183). Printed per method: time, clusters and their mean size, the silhouette (cosine, 1,000 sampled points:
 * how much closer a point is to its own cluster than to the nearest other) and co-relevance: of the pairs of
 * documents relevant to one train query, the share that land in one cluster (what a summary of that cluster can
 * bring together), next to what random clusters of the same sizes would give.
 */

const silhouette = (vectors: number[][], labels: number[], sample: number) => {
  const n = vectors.length;
  const step = Math.max(1, Math.floor(n / sample));
  let total = 0;
  let counted = 0;
  for (let i = 0; i < n; i += step) {
    const sums = new Map<number, { d: number; n: number }>();
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const s = sums.get(labels[j]!) ?? { d: 0, n: 0 };
      s.d += 1 - cosine(vectors[i]!, vectors[j]!);
      s.n += 1;
      sums.set(labels[j]!, s);
    }
    const own = sums.get(labels[i]!);
    if (!own) continue; // a singleton: silhouette 0 by convention
    const a = own.d / own.n;
    const b = Math.min(...[...sums].filter(([l]) => l !== labels[i]).map(([, s]) => s.d / s.n));
    total += (b - a) / Math.max(a, b);
    counted += 1;
  }
  return counted ? (total / n) * step : 0;
};

export const benchRaptor = async () => {
  const scifact = loadSciFact();
  if (!scifact) return "raptor: SciFact not found (../shared/eval/scifact); skipped";
  const sizes = (process.env.BENCH_RAPTOR_DOCS ?? `1000,${scifact.docs.length}`).split(",").map(Number);
  const embedder = getEmbedder();
  const allVectors: number[][] = [];
  for (let i = 0; i < scifact.docs.length; i += 256) {
    const batch = scifact.docs.slice(i, i + 256).map((d) => `${d.title}\n${d.text}`);
    allVectors.push(...(await embedder.embed(batch)).map(normalize));
  }
  const lines = [
    `RAPTOR clustering of one level, SciFact train documents, embedder ${embedder.model}`,
    "docs | method | ms | clusters | mean size | silhouette | co-relevance (random)",
  ];
  for (const size of sizes) {
    const docs = scifact.docs.slice(0, size);
    const vectors = allVectors.slice(0, size);
    const index = new Map(docs.map((d, i) => [d.id, i]));
    const pairs: [number, number][] = [];
    for (const relevant of scifact.qrels.values()) {
      const ids = [...relevant].map((id) => index.get(id)).filter((i): i is number => i !== undefined);
      for (let a = 0; a < ids.length; a++) for (let b = a + 1; b < ids.length; b++) pairs.push([ids[a]!, ids[b]!]);
    }
    for (const method of ["gmm", "watershed"] as ClusterMethod[]) {
      const started = performance.now();
      const clusters = clusterLevel(vectors, method);
      const ms = performance.now() - started;
      const labels = new Array<number>(vectors.length);
      clusters.forEach((c, l) => c.forEach((i) => (labels[i] = l)));
      const together = pairs.filter(([a, b]) => labels[a] === labels[b]).length;
      const random = clusters.reduce((s, c) => s + (c.length / size) ** 2, 0);
      lines.push(
        `${size} | ${method} | ${Math.round(ms)} | ${clusters.length} | ${(size / clusters.length).toFixed(1)} | ` +
          `${silhouette(vectors, labels, 1000).toFixed(3)} | ` +
          `${pairs.length ? (together / pairs.length).toFixed(3) : "n/a"} of ${pairs.length} pairs (${random.toFixed(4)})`,
      );
    }
  }
  return lines.join("\n");
};
