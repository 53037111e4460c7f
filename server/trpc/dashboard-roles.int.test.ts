import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { TEAM_ROLES, roleAtLeast, type TeamRole } from "../teams/teams.schema";
import type { ProcedureMeta } from "./init";
import { appRouter } from "./root";

/**
 * The role rung, over real HTTP, on every dashboard procedure: each one declares what it needs (its meta), and for
 * each role of the team (and for someone outside it, and for no one) the answer must follow from that alone.
 */

const OWNER = { email: "owner@roles.test", password: "owner-password-1" };
const PASSWORD = "member-password-1";

type Procedure = { _def: { type: "query" | "mutation" | "subscription"; meta?: ProcedureMeta } };
const dashboardProcedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>)
  .filter(([path]) => path.startsWith("dashboard."))
  .map(([path, p]) => ({ path: path, type: p._def.type as "query" | "mutation", access: p._def.meta?.access }));

let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
const sessions = {} as Record<TeamRole | "outsider", Session>;
let teamId: string;
let projectId: string;

beforeAll(async () => {
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      // One client address signs in as five people here; the limit itself is tested in browser-surface.
      QUARRY_AUTH_ATTEMPTS_PER_MINUTE: "1000",
    },
  });
  client = dashboardClient(quarry.url);
  sessions.owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(sessions.owner);
  // The headless owner owns the default team, which holds the project the first start made (QUARRY_INIT_TOKEN).
  expect(me.teams).toHaveLength(1);
  expect(me.teams[0]).toMatchObject({ role: "owner", projects: [{ name: "default" }] });
  teamId = me.teams[0]!.id;
  projectId = me.teams[0]!.projects[0]!.id;

  for (const role of ["viewer", "member", "admin"] as const) {
    const { path } = await client.ok<{ path: string }>(
      sessions.owner,
      "dashboard.teams.invite",
      { teamId, role },
      "mutation",
    );
    sessions[role] = await client.signUp(
      { name: role, email: `${role}@roles.test`, password: PASSWORD },
      path.split("/").pop(),
    );
  }
  // Someone with an account but in another team only.
  const other = await client.ok<{ id: string }>(
    sessions.owner,
    "dashboard.account.createTeam",
    { name: "Other" },
    "mutation",
  );
  const { path } = await client.ok<{ path: string }>(
    sessions.owner,
    "dashboard.teams.invite",
    { teamId: other.id, role: "admin" },
    "mutation",
  );
  sessions.outsider = await client.signUp(
    { name: "out", email: "outsider@roles.test", password: PASSWORD },
    path.split("/").pop(),
  );
});

afterAll(async () => quarry?.dispose());

describe("every dashboard procedure sits on a rung", () => {
  it("declares its access in meta", () => {
    expect(dashboardProcedures.length).toBeGreaterThan(20);
    const undeclared = dashboardProcedures.filter((p) => !p.access && p.path !== "dashboard.account.previewInvitation");
    expect(undeclared.map((p) => p.path)).toEqual([]);
    // Webhooks say where the project's events go and hold signing secrets: admins only, reading included.
    const webhooks = dashboardProcedures.filter((p) => p.path.startsWith("dashboard.webhooks."));
    expect(webhooks.length).toBeGreaterThanOrEqual(7);
    expect(webhooks.filter((p) => (p.access as { minRole?: string }).minRole !== "admin")).toEqual([]);
  });

  it("refuses callers without a session (401)", async () => {
    for (const p of dashboardProcedures.filter((p) => p.access)) {
      const input = p.access!.scope === "team" ? { teamId } : { projectId };
      const res = await client.call(null, p.path, input, p.type);
      expect(res.status, p.path).toBe(401);
    }
  });

  it("answers each role by the procedure's minimum role, and outsiders as if nothing existed", async () => {
    const scoped = dashboardProcedures.filter((p) => p.access && p.access.scope !== "user");
    expect(scoped.length).toBeGreaterThan(15);
    const table: string[] = [];
    for (const p of scoped) {
      const access = p.access as { scope: "team" | "project"; minRole: TeamRole };
      // Only the scope id: a caller that passes the rung then fails input validation (400), reads (200), or is told
      // the project's state does not allow the change (409: retrying a deletion that did not fail); nothing is
      // changed by this walk.
      const input = access.scope === "team" ? { teamId } : { projectId };
      const outsider = await client.call(sessions.outsider, p.path, input, p.type);
      expect(outsider.status, `${p.path} outsider`).toBe(404);
      const row = [p.path, access.minRole];
      for (const role of TEAM_ROLES) {
        const res = await client.call(sessions[role], p.path, input, p.type);
        if (roleAtLeast(role, access.minRole)) {
          expect([200, 400, 409], `${p.path} as ${role}: ${res.message}`).toContain(res.status);
        } else {
          expect(res.status, `${p.path} as ${role}`).toBe(403);
          expect(res.message).toMatch(new RegExp(`needs the ${access.minRole} role`));
        }
        row.push(`${role}:${res.status}`);
      }
      table.push(row.join(" "));
    }
    // The matrix as measured, for whoever reads the test output.
    console.log(table.join("\n"));
  });
});

describe("role rules inside the team", () => {
  it("lets a member delete a source but not a viewer, and only admins manage tokens", async () => {
    const api = { Authorization: `Bearer ${quarry.token}` };
    const form = new FormData();
    form.set("file", new Blob(["# Notes\n\nSome text.\n"]), "notes.md");
    const upload = await fetch(`${quarry.url}/api/public/v1/sources/ingest-file`, {
      method: "POST",
      headers: api,
      body: form,
    });
    const { build_id } = (await upload.json()) as { build_id: string };
    const build = (await (
      await fetch(`${quarry.url}/api/public/v1/sources/builds/${build_id}?suppress_elements=true`, { headers: api })
    ).json()) as {
      file_id: string;
    };
    const sourceId = build.file_id;

    const viewerDelete = await client.call(
      sessions.viewer,
      "dashboard.sources.delete",
      { projectId, sourceId },
      "mutation",
    );
    expect(viewerDelete.status).toBe(403);
    const memberToken = await client.call(
      sessions.member,
      "dashboard.tokens.create",
      { projectId, name: "m", permissions: ["read"] },
      "mutation",
    );
    expect(memberToken.status).toBe(403);
    const memberDelete = await client.call(
      sessions.member,
      "dashboard.sources.delete",
      { projectId, sourceId },
      "mutation",
    );
    expect(memberDelete.status).toBe(200);
  });

  it("lets only admins see or change model providers, and no answer or log line carries a key", async () => {
    const key = "sk-roles-provider-key-0123456789";
    const provider = { teamId, kind: "openai", name: "OpenAI", baseUrl: "https://api.openai.com/v1", apiKey: key };
    const created = await client.ok<{ id: string; keyPrefix: string }>(
      sessions.admin,
      "dashboard.modelProviders.create",
      provider,
      "mutation",
    );
    expect(created.keyPrefix).toBe("sk-ro…");
    const byId = { teamId, providerId: created.id };
    for (const role of ["viewer", "member"] as const) {
      for (const [path, input, type] of [
        ["list", { teamId }, "query"],
        ["create", { ...provider, name: role }, "mutation"],
        ["update", { ...byId, name: role }, "mutation"],
        ["test", byId, "mutation"],
        ["remove", byId, "mutation"],
      ] as const) {
        const res = await client.call(sessions[role], `dashboard.modelProviders.${path}`, input, type);
        expect(res.status, `${path} as ${role}`).toBe(403);
      }
    }
    for (const role of ["admin", "owner"] as const) {
      const list = await client.call(sessions[role], "dashboard.modelProviders.list", { teamId }, "query");
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.data)).toContain("sk-ro…");
      expect(JSON.stringify(list.data)).not.toContain(key.slice(6));
    }
    await client.ok(sessions.admin, "dashboard.modelProviders.remove", byId, "mutation");
    expect(quarry.output()).not.toContain(key.slice(6));
  });

  it("shows usage to members, not viewers, and lets only admins price models", async () => {
    const summary = (role: TeamRole) => client.call(sessions[role], "dashboard.usage.summary", { projectId }, "query");
    expect((await summary("viewer")).status).toBe(403);
    expect((await summary("member")).status).toBe(200);
    const price = { projectId, model: "gpt-4o-mini", inputPerMillion: 0.15, outputPerMillion: 0.6 };
    const byMember = await client.call(sessions.member, "dashboard.usage.setPrice", price, "mutation");
    expect(byMember.status).toBe(403);
    const byAdmin = await client.call(sessions.admin, "dashboard.usage.setPrice", price, "mutation");
    expect(byAdmin.status).toBe(200);
    const seen = await client.ok<{ prices: unknown[] }>(
      sessions.member,
      "dashboard.usage.summary",
      { projectId },
      "query",
    );
    expect(seen.prices).toEqual([{ model: "gpt-4o-mini", inputPerMillion: 0.15, outputPerMillion: 0.6 }]);
  });

  it("keeps owners in charge of owners, and never leaves a team without one", async () => {
    const members = await client.ok<{ members: { id: string; email: string }[] }>(
      sessions.owner,
      "dashboard.teams.members",
      { teamId },
      "query",
    );
    const idOf = (email: string) => members.members.find((m) => m.email === email)!.id;
    const promote = await client.call(
      sessions.admin,
      "dashboard.teams.changeRole",
      { teamId, userId: idOf("member@roles.test"), role: "owner" },
      "mutation",
    );
    expect(promote).toMatchObject({ status: 403, message: "Only an owner can appoint, demote or remove owners" });
    const inviteOwner = await client.call(
      sessions.admin,
      "dashboard.teams.invite",
      { teamId, role: "owner" },
      "mutation",
    );
    expect(inviteOwner).toMatchObject({ status: 403, message: "Only an owner can invite owners" });
    const demoteSelf = await client.call(
      sessions.owner,
      "dashboard.teams.changeRole",
      { teamId, userId: idOf(OWNER.email), role: "admin" },
      "mutation",
    );
    expect(demoteSelf.status).toBe(409);
  });

  it("uses an invitation once, and refuses sign-up without one", async () => {
    const { path } = await client.ok<{ path: string }>(
      sessions.owner,
      "dashboard.teams.invite",
      { teamId, role: "viewer" },
      "mutation",
    );
    const token = path.split("/").pop();
    await client.signUp({ name: "once", email: "once@roles.test", password: PASSWORD }, token);
    await expect(
      client.signUp({ name: "twice", email: "twice@roles.test", password: PASSWORD }, token),
    ).rejects.toThrow(/403/);
    await expect(client.signUp({ name: "none", email: "none@roles.test", password: PASSWORD })).rejects.toThrow(
      /invitation link/,
    );
  });
});
