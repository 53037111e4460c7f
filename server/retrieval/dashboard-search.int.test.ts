import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { dashboardClient, Session } from "../testing/dashboard-client";
import { startOwnerQuarry } from "../testing/owner-quarry";
import { apiClient, type QuarryProcess } from "../testing/quarry-process";

/**
 * The dashboard's search controls over real HTTP: a score threshold that leaves a gibberish query with nothing
 * instead of weak hits, Top K, a source filter that stays inside the project, and the pickers' "built sources only".
 */

const OWNER = { email: "owner@search.test", password: "owner-password-1" };

type Hits = { scoreThreshold: number; hits: { sourceId: string; fileName: string; score: number }[] };

let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let projectId: string;
let otherProjectId: string;
const ids: Record<string, string> = {};

const ingest = async (name: string, content: string) => {
  const api = apiClient(quarry);
  const res = await api.upload(name, content, { enrichment: "none" });
  expect(res.status).toBe(200);
  const { build_id } = (await res.json()) as { build_id: string };
  return (await api.waitForBuild(build_id, 300_000)) as { status: string };
};

const search = (input: Record<string, unknown>) =>
  client.ok<Hits>(owner, "dashboard.search.query", { projectId, ...input }, "query");

beforeAll(async () => {
  ({ quarry, client, owner, projectId, otherProjectId } = await startOwnerQuarry(OWNER));
  expect(
    await ingest("granite.md", "# Granite\n\nGranite is an igneous rock made of quartz and feldspar.\n"),
  ).toMatchObject({ status: "Completed" });
  expect(
    await ingest("basalt.md", "# Basalt\n\nBasalt is a volcanic rock that cools into hexagonal columns.\n"),
  ).toMatchObject({ status: "Completed" });
  expect(await ingest("broken.pdf", "this is not a PDF at all")).toMatchObject({ status: "Processing failed" });
  const listed = await client.ok<{ items: { id: string; fileName: string }[] }>(
    owner,
    "dashboard.sources.list",
    { projectId },
    "query",
  );
  for (const s of listed.items) ids[s.fileName] = s.id;
}, 600_000);

afterAll(async () => {
  await quarry?.dispose();
});

describe("dashboard search controls", () => {
  it("offers only sources with a completed build to the pickers", async () => {
    const all = await client.ok<{ items: { fileName: string }[] }>(
      owner,
      "dashboard.sources.list",
      { projectId, sort: "fileName", direction: "asc" },
      "query",
    );
    expect(all.items.map((s) => s.fileName)).toEqual(["basalt.md", "broken.pdf", "granite.md"]);
    const built = await client.ok<{ total: number; items: { fileName: string }[] }>(
      owner,
      "dashboard.sources.list",
      { projectId, built: true, sort: "fileName", direction: "asc" },
      "query",
    );
    expect(built).toMatchObject({ total: 2, items: [{ fileName: "basalt.md" }, { fileName: "granite.md" }] });
  });

  it("drops hits below the threshold: a gibberish query finds nothing, a real one keeps its match", async () => {
    const gibberish = "qwxz plokmn vbtrq zzyx";
    const weak = await search({ query: gibberish, searchType: "hybrid", scoreThreshold: 0 });
    const strict = await search({ query: gibberish, searchType: "hybrid", scoreThreshold: 0.3 });
    expect(weak.hits.length).toBeGreaterThan(0);
    expect(strict).toMatchObject({ scoreThreshold: 0.3, hits: [] });
    const real = await search({ query: "granite quartz", searchType: "hybrid", scoreThreshold: 0.3 });
    expect(real.hits[0]).toMatchObject({ fileName: "granite.md" });
    expect(real.hits.every((h) => h.score >= 0.3)).toBe(true);
  });

  it("keeps Top K and searches one source, never another project's", async () => {
    expect((await search({ query: "rock", searchType: "hybrid", topK: 1 })).hits).toHaveLength(1);
    const basalt = await search({ query: "rock", searchType: "hybrid", sourceIds: [ids["basalt.md"]] });
    expect(basalt.hits.length).toBeGreaterThan(0);
    expect(basalt.hits.every((h) => h.sourceId === ids["basalt.md"])).toBe(true);
    const elsewhere = await client.ok<Hits>(
      owner,
      "dashboard.search.query",
      { projectId: otherProjectId, query: "rock", sourceIds: [ids["basalt.md"]] },
      "query",
    );
    expect(elsewhere.hits).toEqual([]);
    const bad = await client.call(
      owner,
      "dashboard.search.query",
      { projectId, query: "rock", scoreThreshold: 2 },
      "query",
    );
    expect(bad.status).toBe(400);
  });
});
