import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { startFakeOidc, type FakeOidc } from "../testing/fake-oidc-server";
import { startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * Sign-in through an OpenID Connect provider configured by env (a stand-in provider on loopback; Better Auth's real
 * generic OAuth client on the path): the sign-up gate holds for it too, an invitation carried in the cookie the
 * invitation page sets lets a new person in, and an existing account signs in by its email.
 */

const OWNER = { email: "owner@oidc.test", password: "owner-password-1" };

let oidc: FakeOidc;
let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let teamId: string;

/** The browser's round trip: start at Quarry, approve at the provider, come back to Quarry's callback. */
const signInWithOidc = async (person: { email: string; name: string }, inviteToken?: string) => {
  const jar = new Map<string, string>(inviteToken ? [["quarry_invite", inviteToken]] : []);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [name, ...value] = pair!.split("=");
      jar.set(name!, value.join("="));
    }
  };
  const start = await fetch(`${quarry.url}/api/auth/sign-in/social`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: client.origin, Cookie: cookie() },
    body: JSON.stringify({ provider: "oidc", callbackURL: "/", errorCallbackURL: "/sign-in" }),
  });
  expect(start.status, await start.clone().text()).toBe(200);
  keep(start);
  const { url } = (await start.json()) as { url: string };
  expect(url.startsWith(`${oidc.issuer}/authorize`)).toBe(true);
  expect(new URL(url).searchParams.get("code_challenge")).toBeTruthy();

  oidc.actAs(person);
  const approved = await fetch(url, { redirect: "manual" });
  expect(approved.status).toBe(302);
  const callback = await fetch(approved.headers.get("location")!, {
    headers: { Cookie: cookie() },
    redirect: "manual",
  });
  keep(callback);
  return { status: callback.status, location: callback.headers.get("location") ?? "", session: { cookie: cookie() } };
};

beforeAll(async () => {
  oidc = await startFakeOidc();
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      OIDC_DISCOVERY_URL: oidc.discoveryUrl,
      OIDC_CLIENT_ID: oidc.clientId,
      OIDC_CLIENT_SECRET: oidc.clientSecret,
      OIDC_PROVIDER_NAME: "Acme SSO",
    },
  });
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
  teamId = me.teams[0]!.id;
});

afterAll(async () => {
  await quarry?.dispose();
  await oidc?.close();
});

describe("OpenID Connect sign-in", () => {
  it("offers the provider on the sign-in page", async () => {
    expect(await (await fetch(`${quarry.url}/sign-in`)).text()).toContain("Continue with <!-- -->Acme SSO");
  });

  it("creates no account for a stranger", async () => {
    const result = await signInWithOidc({ email: "stranger@oidc.test", name: "Stranger" });
    expect(result.status).toBe(302);
    expect(result.location).toMatch(/error=invitation_required/);
    expect((await client.call(result.session, "dashboard.account.me", undefined, "query")).status).toBe(401);
  });

  it("admits a new person who holds an invitation, with the invitation's role", async () => {
    const { path } = await client.ok<{ path: string }>(
      owner,
      "dashboard.teams.invite",
      { teamId, role: "member" },
      "mutation",
    );
    const result = await signInWithOidc({ email: "newcomer@oidc.test", name: "Newcomer" }, path.split("/").pop());
    expect(result.status).toBe(302);
    expect(result.location).not.toMatch(/error/);
    const me = await client.me(result.session);
    expect(me).toMatchObject({ email: "newcomer@oidc.test", teams: [{ id: teamId, role: "member" }] });
  });

  it("signs a returning person in to the same account", async () => {
    const result = await signInWithOidc({ email: "newcomer@oidc.test", name: "Newcomer" });
    expect(result.location).not.toMatch(/error/);
    const me = await client.me(result.session);
    expect(me).toMatchObject({ email: "newcomer@oidc.test", teams: [{ role: "member" }] });
  });

  it("does not hand a password account to whoever the provider vouches for under the same email", async () => {
    // Emails are not verified here (no mail is needed to run Quarry), so Better Auth keeps its rule: no silent
    // linking to an unverified local account. The person signs in with the password instead.
    const result = await signInWithOidc({ email: OWNER.email, name: "Owner?" });
    expect(result.location).toBe("/sign-in?error=account_not_linked");
    expect((await client.call(result.session, "dashboard.account.me", undefined, "query")).status).toBe(401);
  });
});
