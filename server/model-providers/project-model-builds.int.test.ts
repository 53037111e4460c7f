import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../env";
import type { Graph } from "../flows/graph.schema";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * Build-time model calls follow the project's default chat model (server/model-providers/resolve.ts), on real parts:
 * embedded Postgres, the build's own enrich step and the flow's index builds, and OpenAI-compatible stand-ins over
 * real HTTP. A project whose default is a team provider's model has its enrichment and its graph build answered by
 * that provider, with its key, recorded under its name; a project without one keeps the environment's model.
 */

const KEY = "sk-builds-team-key-0123456789";
const DOCUMENT = {
  fileName: "quarry-notes.txt",
  content:
    "Granite quarrying\n\nGranite is cut from the north face with wire saws by Maria Lopez. The granite blocks weigh " +
    "twelve tonnes each and are moved by crane to the cutting shed in Aberdeen.\n\nBasalt columns\n\nBasalt forms " +
    "hexagonal columns when lava cools slowly. Peter Grant crushes the basalt for road gravel at the east pit.",
};

let database: TestDatabase;
let team: FakeChatServer;
let environment: FakeChatServer;
const ids = {} as Record<"team" | "withDefault" | "withoutDefault", string>;

beforeAll(async () => {
  team = await startFakeChatServer();
  team.setModels(["team-llm-1"]);
  team.requireKey(KEY);
  environment = await startFakeChatServer();
  setRuntimeEnv("QUARRY_FETCH_ALLOW_HOSTS", new URL(team.baseUrl).host);
  setRuntimeEnv("QUARRY_SECRET_KEY", "builds-server-secret-0123456789-abcdef");
  setRuntimeEnv("LLM_PROVIDER", "local");
  database = await startTestDatabase();
  const { db } = await import("../db");
  const { createProject } = await import("../projects/service");
  const { createProvider, testProvider } = await import("./service");
  const { setProjectModels } = await import("./project-models");
  ids.team = (await db.team.create({ data: { name: "Builds" } })).id;
  ids.withDefault = (await createProject({ teamId: ids.team, name: "with-default" })).id;
  ids.withoutDefault = (await createProject({ teamId: ids.team, name: "without-default" })).id;
  const provider = await createProvider(
    ids.team,
    { kind: "openai_compatible", name: "Stand-in box", baseUrl: team.baseUrl, apiKey: KEY },
    null,
  );
  expect((await testProvider(ids.team, provider.id)).provider.servedModels).toEqual(["team-llm-1"]);
  await setProjectModels(ids.withDefault, { chat: "team-llm-1" });
}, 600_000);

afterAll(async () => {
  await database?.stop();
  await team?.close();
  await environment?.close();
});

/** The environment's chat model: the second stand-in (on) or none, Quarry's local methods (off). */
const environmentModel = (on: boolean) => {
  setRuntimeEnv("LLM_PROVIDER", on ? "openai" : "local");
  setRuntimeEnv("LLM_BASE_URL", environment.baseUrl);
  setRuntimeEnv("LLM_API_KEY", "sk-environment");
  setRuntimeEnv("LLM_MODEL", "environment-llm");
};

const callsOf = async (projectId: string) => {
  const { flushModelCalls } = await import("../providers/usage");
  const { db } = await import("../db");
  await flushModelCalls();
  return db.modelCall.findMany({
    where: { projectId },
    select: { provider: true, model: true, cause: true, ok: true },
  });
};

/** The document parsed and stored as the partition step leaves it, then the build's own enrich step. */
const enriched = async (projectId: string) => {
  const { storeParsedDocument } = await import("../testing/index-documents");
  const { enrichBuild } = await import("../ingestion/steps/enrich");
  const { db } = await import("../db");
  const { buildId } = await storeParsedDocument(projectId, DOCUMENT);
  await db.build.update({ where: { id: buildId }, data: { enrichment: "full" } });
  const result = await enrichBuild(buildId);
  return { result, build: await db.build.findUniqueOrThrow({ where: { id: buildId } }) };
};

describe("enrichment", () => {
  it("is answered by the team provider serving the project's default chat model, with its key and name", async () => {
    environmentModel(true);
    const before = { requests: team.requests.length, keys: team.authorizations.length };
    const { result, build } = await enriched(ids.withDefault);
    expect(result).toMatchObject({ enriched: true });
    expect(build.enrichmentModel).toBe("team-llm-1");
    expect(build.warnings).toEqual([]);
    const requests = team.requests.slice(before.requests);
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests.map((r) => r.model))).toEqual(new Set(["team-llm-1"]));
    expect(new Set(team.authorizations.slice(before.keys))).toEqual(new Set([`Bearer ${KEY}`]));
    expect(environment.requests).toHaveLength(0);
    const calls = await callsOf(ids.withDefault);
    expect(calls.length).toBe(requests.length);
    expect(new Set(calls.map((c) => JSON.stringify(c)))).toEqual(
      new Set([JSON.stringify({ provider: "Stand-in box", model: "team-llm-1", cause: "enrichment", ok: true })]),
    );
  });

  it("keeps the environment's model for a project without a default, and runs locally without one", async () => {
    environmentModel(true);
    const teamCalls = team.requests.length;
    const { build } = await enriched(ids.withoutDefault);
    expect(build.enrichmentModel).toBe("environment-llm");
    expect(environment.requests.length).toBeGreaterThan(0);
    expect(new Set(environment.authorizations)).toEqual(new Set(["Bearer sk-environment"]));
    expect(new Set((await callsOf(ids.withoutDefault)).map((c) => c.provider))).toEqual(new Set(["openai-compatible"]));

    environmentModel(false);
    const environmentCalls = environment.requests.length;
    const local = await enriched(ids.withoutDefault);
    expect(local.result).toMatchObject({ enriched: true });
    expect(local.build.enrichmentModel).toBe("quarry-local-extractor-v1");
    expect(environment.requests.length).toBe(environmentCalls);
    expect(team.requests.length).toBe(teamCalls);
  });
});

/** A flow of the documents' sources straight into a graph-rag node (the deploy estimates and builds its index). */
const graphOf = (sourceIds: string[]): Graph =>
  ({
    nodes: [
      {
        id: "dataset-1764000000001",
        type: "dataset",
        position: { x: 0, y: 0 },
        data: { config: { fileIds: sourceIds } },
      },
      { id: "graph-rag-1764000000002", type: "graph-rag", position: { x: 300, y: 0 }, data: { config: { topK: 5 } } },
    ],
    edges: [{ source: "dataset-1764000000001", target: "graph-rag-1764000000002" }],
  }) as unknown as Graph;

const indexed = async (projectId: string) => {
  const { indexDocuments } = await import("../testing/index-documents");
  const { sourceChunkSets } = await import("../chunk-sets/service");
  const sources = await indexDocuments({ projectId, documents: [DOCUMENT] });
  const sourceIds = sources.map((s) => s.sourceId);
  return { graph: graphOf(sourceIds), chunkSetIds: await sourceChunkSets(projectId, sourceIds) };
};

describe("graph index builds", () => {
  it("estimate, key and build with the project's default chat model at its team provider", async () => {
    environmentModel(false);
    const { estimateIndexes, ensureIndex, advanceIndex } = await import("../flows/node-indexes/service");
    const withDefault = await indexed(ids.withDefault);
    const [estimate] = await estimateIndexes(ids.withDefault, withDefault.graph);
    expect(estimate).toMatchObject({ kind: "graph-rag", model: "team-llm-1" });
    expect(estimate!.calls).toBeGreaterThan(0);
    const withoutDefault = await indexed(ids.withoutDefault);
    expect((await estimateIndexes(ids.withoutDefault, withoutDefault.graph))[0]).toMatchObject({ model: null });

    const index = await ensureIndex(ids.withDefault, "graph-rag", { topK: 5 }, withDefault.chunkSetIds);
    expect(index.model).toBe("team-llm-1");
    const before = { requests: team.requests.length, keys: team.authorizations.length };
    for (let step = 0; step < 50; step += 1) if ((await advanceIndex(index.id, 10_000_000)).done) break;
    const { db } = await import("../db");
    expect(await db.flowNodeIndex.findUniqueOrThrow({ where: { id: index.id } })).toMatchObject({ status: "ready" });
    expect(team.requests.length).toBeGreaterThan(before.requests);
    expect(new Set(team.requests.slice(before.requests).map((r) => r.model))).toEqual(new Set(["team-llm-1"]));
    expect(new Set(team.authorizations.slice(before.keys))).toEqual(new Set([`Bearer ${KEY}`]));
    const builds = (await callsOf(ids.withDefault)).filter((c) => c.cause === "graph_build");
    expect(builds.length).toBeGreaterThan(0);
    expect(new Set(builds.map((c) => c.provider))).toEqual(new Set(["Stand-in box"]));
  });
});

describe("vision and speech models of a build", () => {
  it("are the project's defaults where a team provider serves them, else the environment's", async () => {
    environmentModel(false);
    const { createProvider, testProvider } = await import("./service");
    const { setProjectModels } = await import("./project-models");
    const { resolveSpeechModel, resolveVisionModel } = await import("./resolve");
    const { withModelUsage } = await import("../providers/usage");
    // A speech endpoint at the same stand-in (it lists its models, so one can be chosen).
    const speech = await createProvider(
      ids.team,
      { kind: "speech", name: "Stand-in speech", baseUrl: team.baseUrl, apiKey: KEY },
      null,
    );
    await testProvider(ids.team, speech.id);
    await setProjectModels(ids.withDefault, { vision: "team-llm-1", speech: "team-llm-1" });

    expect(await resolveVisionModel(ids.withoutDefault)).toBeNull();
    expect(await resolveSpeechModel(ids.withoutDefault)).toBeNull();
    // `agentic` is offered where the project's vision default is served, and refused with the pages to fix it.
    const { assertMethodAvailable } = await import("../ingestion/build-options");
    await expect(assertMethodAvailable(ids.withDefault, "graphorlm")).resolves.toBeUndefined();
    await expect(assertMethodAvailable(ids.withoutDefault, "graphorlm")).rejects.toThrow(
      `choose one at /${ids.withoutDefault}/settings/models (providers are added at /teams/${ids.team}/providers)`,
    );
    await expect(assertMethodAvailable(ids.withoutDefault, "hi_res")).resolves.toBeUndefined();
    expect((await resolveSpeechModel(ids.withDefault))?.config).toEqual({
      baseUrl: team.baseUrl,
      apiKey: KEY,
      model: "team-llm-1",
    });

    // The page reader's call goes to the team provider with its key, recorded under its name.
    const vision = await resolveVisionModel(ids.withDefault);
    expect(vision?.id).toBe("team-llm-1");
    const before = team.authorizations.length;
    await withModelUsage({ projectId: ids.withDefault, cause: "ingestion" }, () =>
      vision!.completeJson({ messages: [{ role: "user", content: 'Read this page.\n"""\nGranite blocks.\n"""' }] }),
    );
    expect(team.authorizations.slice(before)).toEqual([`Bearer ${KEY}`]);
    const { db } = await import("../db");
    await callsOf(ids.withDefault);
    expect(
      await db.modelCall.findFirst({
        where: { projectId: ids.withDefault, capability: "vision" },
        select: { provider: true, model: true, cause: true },
      }),
    ).toEqual({ provider: "Stand-in box", model: "team-llm-1", cause: "ingestion" });
  });
});
