import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markdownDoc } from "../testing/fixtures";
import { dashboardClient, rawRequest, type Session } from "../testing/dashboard-client";
import { startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * The browser surface of a server listening on every interface (HOST=0.0.0.0): sign-in is the only way in, a forged
 * Host header grants nothing, cross-origin writes are refused, responses carry the security headers, the public API
 * stays token-only without CORS, and the status stream pushes changes to a signed-in viewer.
 */

const OWNER = { email: "owner@surface.test", password: "owner-password-1" };
const EVIL = "http://evil.example";

let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let projectId: string;

const uploadForm = () => {
  const form = new FormData();
  form.set("method", "fast");
  form.set("file", new Blob([markdownDoc("Basalt columns")]), "basalt.md");
  return form;
};

beforeAll(async () => {
  quarry = await startQuarry({
    env: { HOST: "0.0.0.0", QUARRY_ADMIN_EMAIL: OWNER.email, QUARRY_ADMIN_PASSWORD: OWNER.password },
  });
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
  projectId = me.teams[0]!.projects[0]!.id;
});

afterAll(async () => quarry?.dispose());

describe("the Host header grants nothing", () => {
  for (const host of ["localhost", "127.0.0.1", "[::1]"]) {
    it(`Host: ${host} without a session gets no dashboard data, page or upload`, async () => {
      const port = new URL(quarry.url).port;
      const headers = { Host: `${host}:${port}` };
      const rpc = await rawRequest(`${quarry.url}/api/trpc/dashboard.account.me`, { headers });
      expect(rpc.status).toBe(401);
      const page = await rawRequest(`${quarry.url}/${projectId}/sources`, { headers });
      expect(page.status).toBe(307);
      expect(page.headers.location).toMatch(/\/sign-in$/);
      // Even a request whose Origin matches the forged Host (so the CSRF check passes) has no session.
      const upload = await rawRequest(`${quarry.url}/api/projects/${projectId}/upload`, {
        method: "POST",
        headers: { ...headers, Origin: `http://${host}:${port}` },
        body: uploadForm(),
      });
      expect(upload.status).toBe(401);
      const events = await rawRequest(`${quarry.url}/api/projects/${projectId}/events`, { headers });
      expect(events.status).toBe(401);
      const api = await rawRequest(`${quarry.url}/api/public/v1/sources`, { headers });
      expect(api.status).toBe(401);
    });
  }
});

describe("cross-origin requests are refused", () => {
  it("refuses a cross-origin upload with a valid session before reading it", async () => {
    const before = await client.ok<{ total: number }>(owner, "dashboard.sources.list", { projectId }, "query");
    for (const origin of [EVIL, `http://localhost.evil.example`, "null"]) {
      const res = await fetch(`${quarry.url}/api/projects/${projectId}/upload`, {
        method: "POST",
        headers: { Cookie: owner.cookie, Origin: origin },
        body: uploadForm(),
      });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual({ detail: "Cross-origin request refused" });
    }
    // Without any Origin (not a browser page of this app) it is refused too.
    const bare = await fetch(`${quarry.url}/api/projects/${projectId}/upload`, {
      method: "POST",
      headers: { Cookie: owner.cookie },
      body: uploadForm(),
    });
    expect(bare.status).toBe(403);
    const after = await client.ok<{ total: number }>(owner, "dashboard.sources.list", { projectId }, "query");
    expect(after.total).toBe(before.total);
  });

  it("refuses cross-origin tRPC mutations and sign-ins, and accepts the same request from the app's origin", async () => {
    const input = { projectId, name: "from evil", permissions: ["read"] };
    const evil = await client.call(owner, "dashboard.tokens.create", input, "mutation", { Origin: EVIL });
    expect(evil.status).toBe(403);
    const site = await client.call(owner, "dashboard.tokens.create", input, "mutation", {
      "Sec-Fetch-Site": "cross-site",
    });
    expect(site.status).toBe(403);
    const tokens = await client.ok<{ name: string }[]>(owner, "dashboard.tokens.list", { projectId }, "query");
    expect(tokens.map((t) => t.name)).not.toContain("from evil");

    const signIn = await client.authPost("/sign-in/email", OWNER, { Origin: EVIL, Cookie: owner.cookie });
    expect(signIn.status).toBe(403);

    const same = await client.call(owner, "dashboard.tokens.create", { ...input, name: "same origin" }, "mutation");
    expect(same.status).toBe(200);
  });

  it("refuses a tRPC body over the JSON limit with 413 and still answers the next call", async () => {
    const input = { projectId, name: "x".repeat(1100 * 1024), permissions: ["read"] };
    const big = await client.call(owner, "dashboard.tokens.create", input, "mutation");
    expect(big.status).toBe(413);
    expect(big.message).toContain("exceeds the maximum size");
    const small = await client.call(owner, "dashboard.tokens.create", { ...input, name: "small" }, "mutation");
    expect(small.status).toBe(200);
  });

  it("uploads from the app's own origin with a member's session", async () => {
    const res = await fetch(`${quarry.url}/api/projects/${projectId}/upload`, {
      method: "POST",
      headers: { Cookie: owner.cookie, Origin: client.origin },
      body: uploadForm(),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ buildId: expect.any(String) });
  });
});

describe("sessions and headers", () => {
  it("sets the session cookie HttpOnly and SameSite=Lax", async () => {
    const res = await client.authPost("/sign-in/email", OWNER);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("quarry.session_token="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
  });

  it("sends a nonce CSP, frame denial and nosniff with every page, and a deny-all CSP with API answers", async () => {
    const page = await fetch(`${quarry.url}/sign-in`);
    const csp = page.headers.get("content-security-policy") ?? "";
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const html = await page.text();
    // Next's own inline scripts carry the nonce; no script runs without it.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // A fresh nonce per response.
    const again = (await fetch(`${quarry.url}/sign-in`)).headers.get("content-security-policy");
    expect(again).not.toBe(csp);

    for (const res of [page, await fetch(`${quarry.url}/api/health`)]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
    expect((await fetch(`${quarry.url}/api/health`)).headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });

  it("keeps the public API token-only, without CORS", async () => {
    const preflight = await fetch(`${quarry.url}/api/public/v1/sources`, {
      method: "OPTIONS",
      headers: {
        Origin: EVIL,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const withOrigin = await fetch(`${quarry.url}/api/public/v1/sources`, {
      headers: { Origin: EVIL, Authorization: `Bearer ${quarry.token}` },
    });
    expect(withOrigin.status).toBe(200);
    expect(withOrigin.headers.get("access-control-allow-origin")).toBeNull();
    // A dashboard session is not an API credential.
    const withCookie = await fetch(`${quarry.url}/api/public/v1/sources`, { headers: { Cookie: owner.cookie } });
    expect(withCookie.status).toBe(401);
  });

  it("refuses sign-up without an invitation once the owner exists, and shows no setup page", async () => {
    const attempt = async (email: string) => {
      const res = await client.authPost("/sign-up/email", { name: "x", email, password: "password-123" });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const unknown = await attempt("x@surface.test");
    expect(unknown).toEqual({
      status: 403,
      body: {
        code: "invitation_required",
        message: "Accounts are created through an invitation link from a team admin",
      },
    });
    // An existing account's email gets the very same answer: sign-up does not tell who has an account.
    expect(await attempt(OWNER.email)).toEqual(unknown);
    expect(await attempt(OWNER.email.toUpperCase())).toEqual(unknown);
    const setup = await fetch(`${quarry.url}/setup`, { redirect: "manual" });
    expect(setup.status).toBe(307);
    expect(setup.headers.get("location")).toMatch(/\/sign-in$/);
  });

  it("slows password guessing per client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await client.authPost("/sign-in/email", { email: OWNER.email, password: `wrong-${i}` })).status);
    }
    // The default allows 10 attempts a minute (two were used above); the rest are refused without checking.
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
  });

  it("counts password changes like sign-ins: ten a minute, then refused", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const body = { currentPassword: `wrong-${i}`, newPassword: "another-password-1" };
      statuses.push((await client.authPost("/change-password", body, { Cookie: owner.cookie })).status);
    }
    // Better Auth's own rule refused the fourth within 10 s; a user who mistypes twice is not locked out for it.
    expect(statuses.slice(0, 10)).not.toContain(429);
    expect(statuses.slice(0, 10)).not.toContain(200);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("the job endpoint", () => {
  it("answers only the in-process executor's signed calls: 405/401, no internals, no registration", async () => {
    const logBefore = quarry.output().length;
    const call = async (method: string, query = "", headers: Record<string, string> = {}) => {
      const res = await fetch(`${quarry.url}/api/inngest${query}`, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: method === "GET" ? undefined : JSON.stringify({ version: 2, event: { name: "x", data: {} }, steps: {} }),
      });
      return { status: res.status, allow: res.headers.get("allow"), body: await res.text() };
    };
    const methodNotAllowed = { status: 405, allow: "POST", body: JSON.stringify({ detail: "Method Not Allowed" }) };
    const unauthorized = {
      status: 401,
      allow: null,
      body: JSON.stringify({ detail: "Invalid authentication credentials" }),
    };
    // PUT would make serve() register with "the Inngest server" (here: the app itself); GET would describe the app.
    expect(await call("PUT")).toEqual(methodNotAllowed);
    expect(await call("PUT", "?deployId=x", { "x-inngest-signature": "t=1&s=00" })).toEqual(methodNotAllowed);
    expect(await call("GET")).toEqual(methodNotAllowed);
    expect(await call("POST")).toEqual(unauthorized);
    const step = "?fnId=quarry-process-source-build&stepId=step";
    expect(await call("POST", step)).toEqual(unauthorized);
    const forged = `t=${Math.round(Date.now() / 1000)}&s=${"ab".repeat(32)}`;
    expect(await call("POST", step, { "x-inngest-signature": forged, "x-inngest-server-kind": "cloud" })).toEqual(
      unauthorized,
    );
    await new Promise((r) => setTimeout(r, 300));
    // No registration attempt, no error lines: a stranger's knock is not the server's problem.
    const log = quarry.output().slice(logBefore);
    expect(log).not.toMatch(/regist/i);
    expect(log).not.toMatch(/"level":(40|50|60)/);
  });
});

describe("status stream", () => {
  it("pushes a source's status changes to a signed-in viewer of the project", async () => {
    const controller = new AbortController();
    const stream = await fetch(`${quarry.url}/api/projects/${projectId}/events`, {
      headers: { Cookie: owner.cookie },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);

    const form = new FormData();
    form.set("file", new Blob([markdownDoc("Marble")]), "marble.md");
    const upload = await fetch(`${quarry.url}/api/public/v1/sources/ingest-file`, {
      method: "POST",
      headers: { Authorization: `Bearer ${quarry.token}` },
      body: form,
    });
    expect(upload.status).toBe(200);

    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const seen: { fileName: string; status: string; build: { status: string } | null }[] = [];
    let buffer = "";
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !seen.some((r) => r.fileName === "marble.md" && r.status === "Completed")) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      const events = buffer.split("\n\n");
      buffer = events.pop() ?? "";
      for (const event of events) {
        const data = event.match(/^event: source\ndata: (.*)$/m)?.[1];
        if (data) seen.push(JSON.parse(data));
      }
    }
    controller.abort();
    const marble = seen.filter((r) => r.fileName === "marble.md");
    expect(marble.at(-1)).toMatchObject({ status: "Completed", build: { status: "Completed" } });
    // Small rows, one per change, never the whole list.
    expect(JSON.stringify(marble.at(-1)).length).toBeLessThan(1500);
  });
});
