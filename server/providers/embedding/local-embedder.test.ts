import { describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../../env";
import { getEmbedder, resolveDimension } from ".";
import { createLocalEmbedder, embedLocal, LOCAL_EMBEDDING_DIMENSION, LOCAL_EMBEDDING_MODEL } from "./local-embedder";
import { stem } from "./stem";

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * (b[i] ?? 0), 0);

describe("local embedder", () => {
  it("is deterministic, 256-dimensional and unit length", async () => {
    const embedder = createLocalEmbedder();
    expect(embedder).toMatchObject({ provider: "local", model: LOCAL_EMBEDDING_MODEL, dimension: 256 });
    const [a, b, empty] = await embedder.embed([
      "Hybrid retrieval over parsed documents.",
      "Hybrid retrieval over parsed documents.",
      "",
    ]);
    expect(a).toHaveLength(LOCAL_EMBEDDING_DIMENSION);
    expect(a).toEqual(b);
    for (const v of [a, empty]) expect(Math.hypot(...(v ?? []))).toBeCloseTo(1, 6);
  });

  it("scores related sentences above unrelated ones", () => {
    const pairs: [string, string, string][] = [
      [
        "How do I reset my account password?",
        "To reset a forgotten password, open account settings.",
        "The recipe needs two cups of flour and an egg.",
      ],
      [
        "Dense passage retrieval for question answering",
        "Retrieving passages to answer open-domain questions",
        "Quarterly revenue grew in the European market.",
      ],
      [
        "The cat sat on the warm windowsill.",
        "A cat was sitting on the windowsill in the sun.",
        "Interest rates were raised by the central bank.",
      ],
      [
        "Invoice total due in thirty days",
        "Payment of the invoice is due within 30 days",
        "Mountain hiking trails closed after snowfall",
      ],
    ];
    for (const [query, related, unrelated] of pairs) {
      const q = embedLocal(query);
      expect(cosine(q, embedLocal(related))).toBeGreaterThan(cosine(q, embedLocal(unrelated)) + 0.05);
    }
  });

  it("matches a query word to its inflected forms in a document", () => {
    const query = embedLocal("indexing");
    const inflected = embedLocal("The pages were indexed overnight by the crawler.");
    const other = embedLocal("The pages were printed overnight by the office.");
    expect(cosine(query, inflected)).toBeGreaterThan(cosine(query, other) + 0.1);
    expect(["indexing", "indexed", "indexes", "index"].map(stem)).toEqual(["index", "index", "index", "index"]);
    expect(["retrieving", "retrieved", "retrieve"].map(stem)).toEqual(["retriev", "retriev", "retriev"]);
    expect(["studies", "running", "boxes"].map(stem)).toEqual(["study", "run", "box"]);
  });

  it("ignores case and accents", () => {
    expect(embedLocal("Café RÉSUMÉ")).toEqual(embedLocal("cafe resume"));
  });
});

describe("getEmbedder", () => {
  it("builds the local embedder from the environment and reuses it", async () => {
    setRuntimeEnv("EMBEDDING_PROVIDER", "local");
    const embedder = getEmbedder();
    expect(embedder.provider).toBe("local");
    expect(getEmbedder()).toBe(embedder);
    expect(await resolveDimension(embedder)).toBe(256);
  });
});
