import { createHash } from "node:crypto";
import { request } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { startFakeSmtp, type FakeSmtp } from "../testing/fake-smtp-server";
import { appDatabaseUrl, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { TOO_MANY_RESETS } from "./reset-limits";

/**
 * Password resets over real HTTP on a real Quarry: "forgot password" mails a one-time link through the SMTP settings
 * invitations use (to a stand-in SMTP server) and answers alike for unknown addresses; an admin-issued link follows
 * the team's rules; a link works once, and using it signs the account out everywhere. Reset tokens (like invitation
 * and API tokens) are stored hashed: the test reads the app's database as an outside client to show it, and to set
 * states up by hand (an expired link, a link stored in clear by an older version).
 */

const OWNER = { email: "owner@reset.test", password: "owner-password-1" };
const PUBLIC_URL = "http://quarry.reset.test";
const PASSWORD = "member-password-1";
/** "Forgot password" limits for this install; the tests of other limits send from 127.0.0.1, the limit tests not. */
const PER_ADDRESS = 2;
const PER_IP = 4;

let smtp: FakeSmtp;
let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let teamId: string;
let sql: pg.Client;
const users: Record<string, { id: string; session: Session }> = {};

const invite = async (team: string, role: string, email: string) => {
  const { path } = await client.ok<{ path: string }>(
    owner,
    "dashboard.teams.invite",
    { teamId: team, role },
    "mutation",
  );
  const session = await client.signUp({ name: role, email, password: PASSWORD }, path.split("/").pop());
  const me = await client.me(session);
  return { id: me.userId, session };
};

const waitForMail = async (to: string) => {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const mail = smtp.messages.find((m) => m.to.includes(`<${to}>`));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}`);
};

/** Waits (with a generous deadline) until `count` mails to `to` have arrived. */
const waitForMails = async (to: string, count: number) => {
  const deadline = Date.now() + 60_000;
  const sent = () => smtp.messages.filter((m) => m.to.includes(`<${to}>`)).length;
  while (sent() < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(sent()).toBe(count);
};

/** Every row of a table as text, to look for a secret anywhere in it. */
const rowsOf = async (table: string) =>
  (await sql.query<{ row: string }>(`SELECT t::text AS row FROM ${table} t`)).rows.map((r) => r.row);

/** What Better Auth stores for a reset token with `storeIdentifier: "hashed"`: SHA-256, base64url without padding. */
const storedIdentifier = (token: string) => createHash("sha256").update(`reset-password:${token}`).digest("base64url");

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
      QUARRY_RESET_MAILS_PER_ADDRESS_HOUR: String(PER_ADDRESS),
      QUARRY_RESET_REQUESTS_PER_IP_HOUR: String(PER_IP),
    },
  });
  client = dashboardClient(quarry.url);
  sql = new pg.Client({ connectionString: appDatabaseUrl(quarry) });
  await sql.connect();
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
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
  await sql?.end();
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

// Several sign-ups and sign-ins each (scrypt): generous on a loaded machine.
describe("secrets at rest", { timeout: 180_000 }, () => {
  const issue = (userId: string) =>
    client.ok<{ path: string }>(owner, "dashboard.teams.issueResetLink", { teamId, userId }, "mutation");

  it("keeps only a hash of a reset token, and the link still works once", async () => {
    const user = await invite(teamId, "member", "hashed@reset.test");
    const token = (await issue(user.id)).path.split("/").pop()!;
    const rows = await rowsOf("verifications");
    expect(rows.filter((row) => row.includes(token))).toEqual([]);
    const stored = await sql.query("SELECT value FROM verifications WHERE identifier = $1", [storedIdentifier(token)]);
    expect(stored.rows).toEqual([{ value: user.id }]);

    expect(await (await fetch(`${quarry.url}/reset-password/${token}`)).text()).toContain("Choose a new password");
    expect((await resetWith(token, "hashed-password-2")).status).toBe(200);
    await client.signIn("hashed@reset.test", "hashed-password-2");
    expect((await resetWith(token, "hashed-password-3")).status).toBe(400);
    expect(
      (await sql.query("SELECT 1 FROM verifications WHERE identifier = $1", [storedIdentifier(token)])).rowCount,
    ).toBe(0);
  });

  it("stores a mailed link's token hashed as well", async () => {
    await invite(teamId, "member", "mailed@reset.test");
    expect((await client.authPost("/request-password-reset", { email: "mailed@reset.test" })).status).toBe(200);
    const token = tokenOf((await waitForMail("mailed@reset.test")).data);
    expect((await rowsOf("verifications")).filter((row) => row.includes(token))).toEqual([]);
    expect(
      (await sql.query("SELECT 1 FROM verifications WHERE identifier = $1", [storedIdentifier(token)])).rowCount,
    ).toBe(1);
  });

  it("refuses a link once it has expired", async () => {
    const user = await invite(teamId, "member", "expired@reset.test");
    const token = (await issue(user.id)).path.split("/").pop()!;
    // Expired by hand, not by waiting.
    const moved = await sql.query(
      "UPDATE verifications SET expires_at = now() - interval '1 minute' WHERE identifier = $1",
      [storedIdentifier(token)],
    );
    expect(moved.rowCount).toBe(1);
    expect(await (await fetch(`${quarry.url}/reset-password/${token}`)).text()).toContain(
      "This link has expired or was already used",
    );
    expect((await resetWith(token, "expired-password-2")).status).toBe(400);
    await expect(client.signIn("expired@reset.test", "expired-password-2")).rejects.toThrow("sign-in failed: 401");
    await client.signIn("expired@reset.test", PASSWORD);
  });

  it("honours a link stored in clear by an older version until it expires", async () => {
    const user = await invite(teamId, "member", "legacy@reset.test");
    const plant = (token: string, expires: string) =>
      sql.query(
        `INSERT INTO verifications (id, identifier, value, expires_at, updated_at)
         VALUES (gen_random_uuid(), $1, $2, now() + $3::interval, now())`,
        [`reset-password:${token}`, user.id, expires],
      );
    const live = "legacyLiveToken0123456789";
    const stale = "legacyStaleToken012345678";
    await plant(live, "1 hour");
    await plant(stale, "-1 minute");

    expect(await (await fetch(`${quarry.url}/reset-password/${stale}`)).text()).toContain(
      "This link has expired or was already used",
    );
    expect((await resetWith(stale, "legacy-password-2")).status).toBe(400);

    expect(await (await fetch(`${quarry.url}/reset-password/${live}`)).text()).toContain("Choose a new password");
    expect((await resetWith(live, "legacy-password-2")).status).toBe(200);
    await client.signIn("legacy@reset.test", "legacy-password-2");
    expect((await resetWith(live, "legacy-password-3")).status).toBe(400);
  });

  it("keeps invitation and API tokens hashed too", async () => {
    const { path } = await client.ok<{ path: string }>(
      owner,
      "dashboard.teams.invite",
      { teamId, role: "viewer" },
      "mutation",
    );
    const invitation = path.split("/").pop()!;
    const project = await client.ok<{ id: string }>(
      owner,
      "dashboard.projects.create",
      { teamId, name: "at-rest" },
      "mutation",
    );
    const { token } = await client.ok<{ token: string }>(
      owner,
      "dashboard.tokens.create",
      { projectId: project.id, name: "at rest", permissions: ["read"] },
      "mutation",
    );
    const invitations = await rowsOf("team_invitations");
    const tokens = await rowsOf("api_tokens");
    expect(invitations.length).toBeGreaterThan(0);
    expect(tokens.length).toBeGreaterThan(1);
    expect(invitations.filter((row) => row.includes(invitation))).toEqual([]);
    for (const secret of [token, quarry.token]) {
      expect(tokens.filter((row) => row.includes(secret.slice(4)))).toEqual([]);
    }
  });
});

describe("forgot password, limited", { timeout: 180_000 }, () => {
  /** "Forgot password" from a client address of our choosing (all of 127/8 reaches the app on loopback). */
  const forgotFrom = (clientIp: string, email: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const body = JSON.stringify({ email });
      const url = new URL(`${quarry.url}/api/auth/request-password-reset`);
      const req = request(
        url,
        {
          method: "POST",
          localAddress: clientIp,
          headers: {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
            origin: url.origin,
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  it(`mails one address at most ${PER_ADDRESS} times an hour, from any client, known or not`, async () => {
    await invite(teamId, "member", "flooded@reset.test");
    for (const [i, email] of ["flooded@reset.test", "unknown-flooded@reset.test"].entries()) {
      for (let n = 0; n < PER_ADDRESS; n++) {
        expect((await forgotFrom(`127.0.1.${10 * i + n + 1}`, email)).status, `${email} #${n + 1}`).toBe(200);
      }
      // Another client, same address (and the address's case does not make it another one).
      const refused = await forgotFrom(`127.0.1.${10 * i + 9}`, email.toUpperCase());
      expect(refused.status, email).toBe(429);
      expect(JSON.parse(refused.text)).toMatchObject({ message: TOO_MANY_RESETS });
    }
    // Exactly PER_ADDRESS mails, however long one waits for more.
    await waitForMails("flooded@reset.test", PER_ADDRESS);
    expect(smtp.messages.filter((m) => m.to.includes("<flooded@reset.test>")).length).toBe(PER_ADDRESS);

    // The hour passes (set by hand): the address may ask again.
    await sql.query("UPDATE password_reset_limits SET window_start = window_start - interval '61 minutes'");
    expect((await forgotFrom("127.0.1.30", "flooded@reset.test")).status).toBe(200);
    await waitForMails("flooded@reset.test", PER_ADDRESS + 1);
  });

  it(`takes at most ${PER_IP} requests an hour from one client address, whatever the addresses`, async () => {
    for (let n = 0; n < PER_IP; n++) {
      expect((await forgotFrom("127.0.2.1", `many-${n}@reset.test`)).status, `#${n + 1}`).toBe(200);
    }
    const refused = await forgotFrom("127.0.2.1", "many-last@reset.test");
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toMatchObject({ message: TOO_MANY_RESETS });
    // Another client is not held back by that one, and the refused request used up no address's allowance.
    expect((await forgotFrom("127.0.2.2", "many-last@reset.test")).status).toBe(200);
  });

  it("keeps no email or client address in clear, nor as a plain hash a list of addresses could be matched to", async () => {
    const rows = (await rowsOf("password_reset_limits")).join("\n");
    expect(rows).not.toMatch(/@reset\.test|127\.0\./i);
    const plain = (value: string) => createHash("sha256").update(value).digest("base64url");
    expect(rows).not.toContain(plain("many-last@reset.test"));
    expect(rows).not.toContain(plain("127.0.2.1"));
    expect(rows.length).toBeGreaterThan(0);
  });
});
