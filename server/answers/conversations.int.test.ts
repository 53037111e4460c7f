import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Citation } from "./events.schema";
import type { dashboardClient, Session } from "../testing/dashboard-client";
import { startOwnerQuarry } from "../testing/owner-quarry";
import { apiClient, type QuarryProcess } from "../testing/quarry-process";

/**
 * The chat's conversation list over real HTTP: conversations asked through the public API show up in the dashboard
 * of their own project only, titled by their first question until renamed, and go away with their turns on delete.
 */

const OWNER = { email: "owner@conversations.test", password: "owner-password-1" };

type Listed = { conversationId: string; title: string; turnCount: number };

let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let projectId: string;
let otherProjectId: string;

type Cited = { index: number; file_name: string | null; page_number: number | null };
/** The citations of each answer the public API gave, by question. */
const citedByApi = new Map<string, Cited[]>();

const ask = async (question: string, conversationId: string) => {
  const res = await apiClient(quarry).post("/ask-sources", { question, conversation_id: conversationId });
  expect(res.status).toBe(200);
  citedByApi.set(question, ((await res.json()) as { citations: Cited[] }).citations);
};

const list = (project = projectId) =>
  client.ok<Listed[]>(owner, "dashboard.answers.conversations", { projectId: project }, "query");

beforeAll(async () => {
  ({ quarry, client, owner, projectId, otherProjectId } = await startOwnerQuarry(OWNER));
  const upload = await apiClient(quarry).upload("granite.md", "# Granite\n\nGranite is an igneous rock.\n", {
    enrichment: "none",
  });
  const { build_id } = (await upload.json()) as { build_id: string };
  await apiClient(quarry).waitForBuild(build_id, 300_000);
  await ask("What is granite?", "first");
  await ask("Where does it form?", "first");
  await ask("Is granite igneous?", "second");
}, 600_000);

afterAll(async () => {
  await quarry?.dispose();
});

describe("dashboard conversations", () => {
  it("lists the project's conversations newest first, titled by their first question", async () => {
    const rows = await list();
    expect(rows.map((r) => [r.conversationId, r.title, r.turnCount])).toEqual([
      ["second", "Is granite igneous?", 1],
      ["first", "What is granite?", 2],
    ]);
    const turns = await client.ok<{ question: string; citations: Omit<Citation, "imageBase64">[] }[]>(
      owner,
      "dashboard.answers.turns",
      { projectId, conversationId: "first" },
      "query",
    );
    expect(turns.map((t) => t.question)).toEqual(["What is granite?", "Where does it form?"]);
    // A reopened conversation shows the passages each answer cited, as the API returned them.
    expect(citedByApi.get("What is granite?")!.length).toBeGreaterThan(0);
    for (const turn of turns)
      expect(turn.citations.map((c) => [c.index, c.fileName, c.pageNumber])).toEqual(
        citedByApi.get(turn.question)!.map((c) => [c.index, c.file_name, c.page_number]),
      );
  });

  it("keeps another project's list, rename and delete apart", async () => {
    expect(await list(otherProjectId)).toEqual([]);
    for (const [path, input] of [
      ["dashboard.answers.renameConversation", { projectId: otherProjectId, conversationId: "first", title: "x" }],
      ["dashboard.answers.deleteConversation", { projectId: otherProjectId, conversationId: "first" }],
    ] as const) {
      const res = await client.call(owner, path, input, "mutation");
      expect(res).toMatchObject({ status: 404, message: "Conversation not found" });
    }
    expect((await list()).map((r) => r.conversationId)).toEqual(["second", "first"]);
  });

  it("renames without reordering, and refuses an empty name", async () => {
    await client.ok(
      owner,
      "dashboard.answers.renameConversation",
      { projectId, conversationId: "first", title: "  Granite basics " },
      "mutation",
    );
    expect((await list()).map((r) => [r.conversationId, r.title])).toEqual([
      ["second", "Is granite igneous?"],
      ["first", "Granite basics"],
    ]);
    const empty = await client.call(
      owner,
      "dashboard.answers.renameConversation",
      { projectId, conversationId: "first", title: "   " },
      "mutation",
    );
    expect(empty.status).toBe(400);
  });

  it("deletes a conversation with its turns; asking under its id again starts afresh", async () => {
    await client.ok(owner, "dashboard.answers.deleteConversation", { projectId, conversationId: "first" }, "mutation");
    expect((await list()).map((r) => r.conversationId)).toEqual(["second"]);
    const turns = await client.ok<unknown[]>(
      owner,
      "dashboard.answers.turns",
      { projectId, conversationId: "first" },
      "query",
    );
    expect(turns).toEqual([]);
    await ask("What is granite?", "first");
    expect((await list()).map((r) => [r.conversationId, r.title, r.turnCount])).toEqual([
      ["first", "What is granite?", 1],
      ["second", "Is granite igneous?", 1],
    ]);
  });
});
