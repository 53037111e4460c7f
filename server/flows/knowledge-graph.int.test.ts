import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { graphFixture } from "../graph-rag/graph-fixture";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { flowCall } from "../testing/flow-client";
import { apiClient, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import type { KnowledgeGraph, KnowledgeGraphChunk } from "./knowledge-graph";
import { HIT_RELATIONSHIPS, type KnowledgeGraphSearchHit } from "./knowledge-graph-search";

/**
 * dashboard.flows.knowledgeGraph over real HTTP on a real Quarry: a graph-rag flow (the shipped example) over a
 * generated document, built model-free by its deploy. Before the deploy the node says it was never built; after it, a
 * viewer reads the most connected entities with positions, the relationships among them and their communities, and
 * an entity's passages. Unknown nodes, nodes of another kind and other projects' callers get NOT_FOUND.
 */

const OWNER = { email: "owner@kgraph.test", password: "owner-password-1" };
const PASSWORD = "member-password-1";
const FLOW = "graph-rag";
const NODE = "graph-rag-1764000000023";
const DATASET = "dataset-1764000000021";

let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let viewer: Session;
let outsider: Session;
let projectId: string;
let outsiderProjectId: string;

const graphOf = (session: Session, input: Record<string, unknown>) =>
  client.call(session, "dashboard.flows.knowledgeGraph", { projectId, flow: FLOW, node: NODE, ...input }, "query");
const invite = async (teamId: string, role: string, email: string) => {
  const { path: link } = await client.ok<{ path: string }>(
    owner,
    "dashboard.teams.invite",
    { teamId, role },
    "mutation",
  );
  return client.signUp({ name: role, email, password: PASSWORD }, link.split("/").pop());
};

beforeAll(async () => {
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      QUARRY_AUTH_ATTEMPTS_PER_MINUTE: "1000",
    },
  });
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
  projectId = me.teams[0]!.projects[0]!.id;
  viewer = await invite(me.teams[0]!.id, "viewer", "viewer@kgraph.test");
  const other = await client.ok<{ id: string }>(owner, "dashboard.account.createTeam", { name: "Other" }, "mutation");
  outsider = await invite(other.id, "admin", "outsider@kgraph.test");
  const made = await client.ok<{ id: string }>(
    outsider,
    "dashboard.projects.create",
    { teamId: other.id, name: "elsewhere" },
    "mutation",
  );
  outsiderProjectId = made.id;

  const upload = await apiClient(quarry).upload("computing-history.txt", graphFixture(36));
  const { build_id } = (await upload.json()) as { build_id: string };
  expect(await apiClient(quarry).waitForBuild(build_id)).toMatchObject({ status: "Completed" });
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", path.resolve("examples/flows", `${FLOW}.json`));
  const patch = await flowCall(quarry.url, quarry.token, "path", FLOW, "PATCH", `/datasets/${DATASET}`, {
    files: ["computing-history.txt"],
  });
  expect(patch.status).toBe(200);
}, 300_000);

afterAll(async () => quarry?.dispose());

it("says the node was never built before the flow is deployed", async () => {
  const res = await graphOf(viewer, {});
  expect(res.status, res.message).toBe(200);
  expect(res.data).toMatchObject({
    state: "not-deployed",
    node: { id: NODE, name: "Knowledge graph" },
    entities: [],
    totals: { entities: 0 },
  });
});

it("gives a viewer the deployed graph: top entities by degree, their relationships, communities, passages", async () => {
  const deploy = await flowCall(quarry.url, quarry.token, "path", FLOW, "POST", "/deploy", {});
  expect(deploy.status, deploy.text).toBe(200);
  const res = await graphOf(viewer, {});
  expect(res.status, res.message).toBe(200);
  const graph = res.data as KnowledgeGraph;
  expect(graph.state).toBe("ready");
  expect(graph.totals.entities).toBeGreaterThan(9);
  expect(graph.entities).toHaveLength(Math.min(300, graph.totals.entities));
  const degrees = graph.entities.map((e) => e.degree);
  expect(degrees).toEqual([...degrees].sort((a, b) => b - a));
  const names = graph.entities.map((e) => e.name);
  expect(names).toEqual(expect.arrayContaining(["Grace Hopper", "Alan Turing", "Harvard Computation Laboratory"]));
  for (const e of graph.entities) expect(Number.isFinite(e.x) && Number.isFinite(e.y)).toBe(true);
  expect(new Set(graph.entities.map((e) => `${e.x},${e.y}`)).size).toBe(graph.entities.length);

  const ids = new Set(graph.entities.map((e) => e.id));
  expect(graph.relationships.length).toBeGreaterThan(0);
  expect(graph.relationships.length).toBeLessThanOrEqual(graph.totals.relationships);
  for (const r of graph.relationships) expect(ids.has(r.source) && ids.has(r.target)).toBe(true);

  // Each organisation's people form a community, summarised (model-free: extractive summaries).
  expect(graph.totals.communities).toBeGreaterThanOrEqual(3);
  expect(graph.communities.length).toBeGreaterThanOrEqual(3);
  for (const c of graph.communities) {
    expect(c.summary.length).toBeGreaterThan(0);
    expect(c.shown).toBeLessThanOrEqual(c.size);
  }
  // Louvain may split an organisation's group further (communities nest; entities point at the innermost), but never
  // puts people of two organisations together.
  const hopper = graph.entities.find((e) => e.name === "Grace Hopper")!;
  const community = (names: string[]) => graph.entities.filter((e) => names.includes(e.name)).map((e) => e.communityId);
  expect(hopper.communityId).toBeTruthy();
  const harvard = ["Howard Aiken", "Jean Sammet", "Harvard Computation Laboratory", "Mark One Calculator"];
  expect(community(harvard)).toContain(hopper.communityId);
  const elsewhere = ["Alan Turing", "Joan Clarke", "Max Newman", "Ada Lovelace", "Charles Babbage", "Mary Somerville"];
  expect(community(elsewhere)).not.toContain(hopper.communityId);

  const chunks = await client.call(
    viewer,
    "dashboard.flows.knowledgeGraphEntity",
    { projectId, flow: FLOW, node: NODE, entityId: hopper.id },
    "query",
  );
  expect(chunks.status, chunks.message).toBe(200);
  const passages = chunks.data as KnowledgeGraphChunk[];
  expect(passages.length).toBeGreaterThan(0);
  expect(passages.length).toBeLessThanOrEqual(hopper.mentions);
  for (const p of passages) {
    expect(p.source).toBe("computing-history.txt");
    expect(p.text).toContain("Grace Hopper");
  }
});

it("answers NOT_FOUND for unknown nodes, other node kinds and entities, and 400 for malformed input", async () => {
  for (const input of [{ node: "graph-rag-1" }, { node: DATASET }, { flow: "no-such-flow" }]) {
    const res = await graphOf(owner, input);
    expect(res.status, JSON.stringify(input)).toBe(404);
  }
  const entity = await client.call(
    owner,
    "dashboard.flows.knowledgeGraphEntity",
    { projectId, flow: FLOW, node: NODE, entityId: "00000000-0000-4000-8000-000000000000" },
    "query",
  );
  expect(entity.status).toBe(404);
  for (const input of [{ node: "" }, { flow: "Not A Flow!" }, { node: "x".repeat(101) }]) {
    const res = await graphOf(owner, input);
    expect(res.status, JSON.stringify(input)).toBe(400);
  }
});

it("answers another team's user as if nothing existed, in our project and in their own", async () => {
  const ours = await graphOf(outsider, {});
  expect(ours.status).toBe(404);
  const graph = (await graphOf(viewer, {})).data as KnowledgeGraph;
  const entity = await client.call(
    outsider,
    "dashboard.flows.knowledgeGraphEntity",
    { projectId: outsiderProjectId, flow: FLOW, node: NODE, entityId: graph.entities[0]!.id },
    "query",
  );
  expect(entity.status).toBe(404);
  const theirs = await graphOf(outsider, { projectId: outsiderProjectId });
  expect(theirs.status).toBe(404);
  expect(theirs.message).toMatch(/not found/i);
});

const searchOf = (session: Session, input: Record<string, unknown>) =>
  client.call(
    session,
    "dashboard.flows.knowledgeGraphSearch",
    { projectId, flow: FLOW, node: NODE, ...input },
    "query",
  );

it("draws the top `limit` entities, within the server's bound, and says how many there are in all", async () => {
  const top = (await graphOf(viewer, { limit: 3 })).data as KnowledgeGraph;
  expect(top.limit).toBe(3);
  expect(top.entities).toHaveLength(3);
  expect(top.totals.entities).toBeGreaterThan(3);
  const all = (await graphOf(viewer, { limit: 1000 })).data as KnowledgeGraph;
  expect(all.entities).toHaveLength(Math.min(1000, all.totals.entities));
  expect(top.entities.map((e) => e.id)).toEqual(all.entities.slice(0, 3).map((e) => e.id));
  for (const r of top.relationships)
    expect(top.entities.some((e) => e.id === r.source) && top.entities.some((e) => e.id === r.target)).toBe(true);
  for (const limit of [0, -1, 1001, 2.5, "300", null]) {
    const res = await graphOf(viewer, { limit });
    expect(res.status, JSON.stringify(limit)).toBe(400);
  }
});

it("searches every entity of the graph, not only the drawn ones: names first, then descriptions", async () => {
  const top = (await graphOf(viewer, { limit: 3 })).data as KnowledgeGraph;
  const all = (await graphOf(viewer, { limit: 1000 })).data as KnowledgeGraph;
  const drawn = new Set(top.entities.map((e) => e.id));
  const outside = all.entities.filter((e) => !drawn.has(e.id)).at(-1)!;
  expect(outside).toBeDefined();
  const res = await searchOf(viewer, { text: `  ${outside.name.toUpperCase()} ` });
  expect(res.status, res.message).toBe(200);
  const hits = res.data as KnowledgeGraphSearchHit[];
  expect(hits[0]).toMatchObject({ id: outside.id, name: outside.name, match: "name", degree: outside.degree });
  if (outside.communityId) expect(hits[0]!.community?.id).toBe(outside.communityId);
  // Its relationships come with it, so the view can draw it beside the drawn entities it relates to.
  const touching = all.relationships.filter((r) => r.source === outside.id || r.target === outside.id);
  expect(hits[0]!.relationships).toHaveLength(Math.min(touching.length, HIT_RELATIONSHIPS));
  expect(touching).toEqual(expect.arrayContaining(hits[0]!.relationships));

  // A prefix ranks the name that starts with it first; descriptions that mention it come after every name.
  const hopper = ((await searchOf(viewer, { text: "grace" })).data as KnowledgeGraphSearchHit[])[0];
  expect(hopper).toMatchObject({ name: "Grace Hopper", match: "name" });
  const city = (await searchOf(viewer, { text: "milton keynes" })).data as KnowledgeGraphSearchHit[];
  expect(city[0]).toMatchObject({ name: "Milton Keynes", match: "name" });
  const kinds = city.map((h) => h.match);
  expect(kinds).toEqual([...kinds].sort((a, b) => (a === b ? 0 : a === "name" ? -1 : 1)));
  for (const h of city)
    expect(`${h.name} ${h.description}`.toLowerCase(), JSON.stringify(h)).toContain("milton keynes");
  const limited = (await searchOf(viewer, { text: "a", limit: 2 })).data as KnowledgeGraphSearchHit[];
  expect(limited).toHaveLength(2);
  expect(((await searchOf(viewer, { text: "no entity is called this" })).data as unknown[]).length).toBe(0);
});

it("takes any search text without a 5xx: LIKE wildcards are literal, bad input is 400", async () => {
  for (const text of ["%", "_", "%%", "\\", "' OR 1=1 --", "a\ud800b", "😀", "名前", "x".repeat(200), "*", "[a-z]"]) {
    const res = await searchOf(viewer, { text });
    expect(res.status, JSON.stringify(text)).toBe(200);
    for (const h of res.data as KnowledgeGraphSearchHit[])
      expect(`${h.name} ${h.description}`.toLowerCase()).toContain(text.toLowerCase());
  }
  for (const input of [{ text: "" }, { text: "   " }, { text: "x".repeat(201) }, { text: 7 }, { text: "a\u0000b" }]) {
    const res = await searchOf(viewer, input);
    expect(res.status, JSON.stringify(input)).toBe(400);
  }
  for (const input of [{ limit: 0 }, { limit: 21 }, { node: "" }, { flow: "Not A Flow!" }, { projectId: "x" }]) {
    const res = await searchOf(viewer, { text: "grace", ...input });
    expect(res.status, JSON.stringify(input)).toBe(400);
  }
});

it("answers another team's user, an unknown node and a signed-out caller as the other procedures do", async () => {
  expect((await searchOf(outsider, { text: "grace" })).status).toBe(404);
  const theirs = await searchOf(outsider, { projectId: outsiderProjectId, text: "grace" });
  expect(theirs.status).toBe(404);
  expect((await searchOf(owner, { node: "graph-rag-1", text: "grace" })).status).toBe(404);
  expect((await searchOf(owner, { node: DATASET, text: "grace" })).status).toBe(404);
  const anonymous = await client.call(
    null,
    "dashboard.flows.knowledgeGraphSearch",
    { projectId, flow: FLOW, node: NODE, text: "grace" },
    "query",
  );
  expect(anonymous.status).toBe(401);
});
