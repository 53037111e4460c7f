import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { startFakeSmtp, type FakeSmtp } from "../testing/fake-smtp-server";
import { startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * Password resets over real HTTP on a real Quarry: "forgot password" mails a one-time link through the SMTP settings
 * invitations use (to a stand-in SMTP server) and answers alike for unknown addresses; an admin-issued link follows
 * the team's rules; a link works once, and using it signs the account out everywhere.
 */

const OWNER = { email: "owner@reset.test", password: "owner-password-1" };
const PUBLIC_URL = "http://quarry.reset.test";
const PASSWORD = "member-password-1";

let smtp: FakeSmtp;
let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let teamId: string;
const users: Record<string, { id: string; session: Session }> = {};

const invite = async (team: string, role: string, email: string) => {
  const { path } = await client.ok<{ path: string }>(
    owner,
    "dashboard.teams.invite",
    { teamId: team, role },
    "mutation",
  );
  const session = await client.signUp({ name: role, email, password: PASSWORD }, path.split("/").pop());
  const me = await client.ok<{ userId: string }>(session, "dashboard.account.me", undefined, "query");
  return { id: me.userId, session };
};

const waitForMail = async (to: string) => {
  for (let i = 0; i < 50; i++) {
    const mail = smtp.messages.find((m) => m.to.includes(`<${to}>`));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}`);
};

const tokenOf = (link: string) => link.split("/reset-password/")[1]!.split(/\s/)[0]!;

const resetWith = (token: string, newPassword: string) => client.authPost("/reset-password", { token, newPassword });

beforeAll(async () => {
  smtp = await startFakeSmtp();
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      SMTP_URL: smtp.url,
      QUARRY_PUBLIC_URL: PUBLIC_URL,
      QUARRY_AUTH_ATTEMPTS_PER_MINUTE: "1000",
    },
  });
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.ok<{ userId: string; teams: { id: string }[] }>(
    owner,
    "dashboard.account.me",
    undefined,
    "query",
  );
  teamId = me.teams[0]!.id;
  users.owner = { id: me.userId, session: owner };
  for (const role of ["viewer", "member", "admin"]) users[role] = await invite(teamId, role, `${role}@reset.test`);
  // Someone in another team only, and someone who administers another team and is a plain member here.
  const other = await client.ok<{ id: string }>(owner, "dashboard.account.createTeam", { name: "Other" }, "mutation");
  users.outsider = await invite(other.id, "member", "outsider@reset.test");
  users.dual = await invite(other.id, "admin", "dual@reset.test");
  const { path } = await client.ok<{ path: string }>(
    owner,
    "dashboard.teams.invite",
    { teamId, role: "member" },
    "mutation",
  );
  expect(
    (
      await client.call(
        users.dual.session,
        "dashboard.account.acceptInvitation",
        { token: path.split("/").pop() },
        "mutation",
      )
    ).status,
  ).toBe(200);
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
  await smtp?.close();
});

describe("forgot password, by mail", () => {
  it("answers alike for a known and an unknown address, and mails only the known one", async () => {
    const known = await client.authPost("/request-password-reset", { email: "member@reset.test" });
    const unknown = await client.authPost("/request-password-reset", { email: "nobody@reset.test" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await known.json());
    const mail = await waitForMail("member@reset.test");
    expect(mail.data).toContain(`${PUBLIC_URL}/reset-password/`);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.filter((m) => m.to.includes("<nobody@reset.test>"))).toEqual([]);
  });

  it("sets a new password once, signs the account out everywhere, and explains a used link", async () => {
    const token = tokenOf((await waitForMail("member@reset.test")).data);
    const page = await fetch(`${quarry.url}/reset-password/${token}`);
    expect(await page.text()).toContain("Choose a new password");

    const reset = await resetWith(token, "member-password-2");
    expect(reset.status).toBe(200);
    expect((await client.call(users.member!.session, "dashboard.account.me", undefined, "query")).status).toBe(401);
    await expect(client.signIn("member@reset.test", PASSWORD)).rejects.toThrow("sign-in failed: 401");
    users.member!.session = await client.signIn("member@reset.test", "member-password-2");

    const again = await resetWith(token, "member-password-3");
    expect(again.status).toBe(400);
    const used = await fetch(`${quarry.url}/reset-password/${token}`);
    expect(await used.text()).toContain("This link has expired or was already used");
    for (const junk of ["x", "%00", "a".repeat(300), "..%2F..%2Fetc"]) {
      expect((await fetch(`${quarry.url}/reset-password/${junk}`)).status, junk).toBeLessThan(500);
    }
  });
});

describe("a reset link issued by an admin", () => {
  const issue = (session: Session, userId: string) =>
    client.call(session, "dashboard.teams.issueResetLink", { teamId, userId }, "mutation");

  it("is for owners and admins, for members of their team, and an owner's only by an owner", async () => {
    expect((await issue(users.member!.session, users.viewer!.id)).status).toBe(403);
    expect((await issue(users.viewer!.session, users.member!.id)).status).toBe(403);
    expect(await issue(users.admin!.session, users.outsider!.id)).toMatchObject({
      status: 404,
      message: "Member not found",
    });
    expect(await issue(users.admin!.session, users.owner!.id)).toMatchObject({
      status: 403,
      message: "Only an owner can issue a reset link for an owner",
    });
    expect(await issue(users.admin!.session, users.dual!.id)).toMatchObject({ status: 403 });
    expect((await issue(users.owner!.session, users.admin!.id)).status).toBe(200);
    // Someone outside the team is told the team does not exist.
    expect((await issue(users.outsider!.session, users.viewer!.id)).status).toBe(404);
  });

  it("sets the member's password once, without mail", async () => {
    const sent = smtp.messages.length;
    const issued = await issue(users.admin!.session, users.viewer!.id);
    expect(issued.status).toBe(200);
    const { path } = issued.data as { path: string; expiresAt: string };
    expect(path).toMatch(/^\/reset-password\/[A-Za-z0-9_-]{32}$/);
    const token = path.split("/").pop()!;
    expect((await resetWith(token, "viewer-password-2")).status).toBe(200);
    expect((await client.call(users.viewer!.session, "dashboard.account.me", undefined, "query")).status).toBe(401);
    await client.signIn("viewer@reset.test", "viewer-password-2");
    expect((await resetWith(token, "viewer-password-3")).status).toBe(400);
    expect(smtp.messages.length).toBe(sent);
  });
});
