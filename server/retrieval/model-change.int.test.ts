import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { markdownDoc } from "../testing/fixtures";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * Switching the embedding model is detected, never mixed: chunks embedded by the old model are not compared with
 * the new model's query vectors until the source is reprocessed. The new model is an OpenAI-compatible server on
 * loopback (the real client code is on the path).
 */

const DIM = 64;
const fakeVector = (text: string) => {
  const v = new Array<number>(DIM).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    v[createHash("md5").update(word).digest()[0]! % DIM]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};

let embeddings: Server;
let embeddingsUrl = "";
const calls: { auth: string | undefined; inputs: number }[] = [];
let quarry: QuarryProcess;

beforeAll(async () => {
  embeddings = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const { input, model } = JSON.parse(body) as { input: string[]; model: string };
      calls.push({ auth: req.headers.authorization, inputs: input.length });
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          object: "list",
          model,
          data: input.map((text, index) => ({ object: "embedding", index, embedding: fakeVector(text) })),
          usage: { prompt_tokens: 0, total_tokens: 0 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => embeddings.listen(0, "127.0.0.1", resolve));
  embeddingsUrl = `http://127.0.0.1:${(embeddings.address() as { port: number }).port}/v1`;
  quarry = await startQuarry();
});
afterAll(async () => {
  await quarry?.dispose();
  embeddings?.close();
});

it("keeps vectors of two models apart until the source is reprocessed", { timeout: 240_000 }, async () => {
  const api = apiClient(quarry);
  const { build_id } = (await (await api.upload("granite.md", markdownDoc())).json()) as { build_id: string };
  expect(await api.waitForBuild(build_id)).toMatchObject({ status: "Completed" });
  const fileId = ((await (await api.get(`/builds/${build_id}`)).json()) as { file_id: string }).file_id;
  const question = { query: "wire saws with diamond beads" };
  const before = await (await api.post("/prebuilt-rag", question)).json();
  expect(before.message).toBeUndefined();

  await quarry.kill("SIGTERM");
  await quarry.restart({
    EMBEDDING_PROVIDER: "openai",
    EMBEDDING_BASE_URL: embeddingsUrl,
    EMBEDDING_API_KEY: "sk-test",
    EMBEDDING_MODEL: "fake-embed-64",
  });

  const stale = await (await api.post("/prebuilt-rag", question)).json();
  expect(stale.message).toMatch(/another model than fake-embed-64/);
  // Found by full text alone: the old 256-dimension vectors were not compared with the new 64-dimension query.
  expect(stale.chunks[0].text).toMatch(/wire saw/i);

  const res = await api.post("/reprocess", { file_id: fileId });
  const rebuilt = ((await res.json()) as { build_id: string }).build_id;
  expect(await api.waitForBuild(rebuilt)).toMatchObject({ status: "Completed" });
  const fresh = await (await api.post("/prebuilt-rag", question)).json();
  expect(fresh.message).toBeUndefined();
  expect(fresh.chunks[0].text).toMatch(/wire saw/i);
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.every((c) => c.auth === "Bearer sk-test")).toBe(true);
});
