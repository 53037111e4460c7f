import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient, rawRequest, type Session } from "./testing/dashboard-client";
import { startQuarry, type QuarryProcess } from "./testing/quarry-process";
import { fillTemplate, METHODS, pageFiles, routeFiles, templateParams } from "./testing/route-files";
import { appRouter } from "./trpc/root";

/**
 * Malformed input never answers 5xx, wherever it enters: every route file and page on disk with each bad path form in
 * each dynamic segment (and appended to the static ones), every method, with no credentials, an API token and a
 * session; U+0000 in the query and JSON body of every route and in the input of every tRPC procedure; the flow
 * host; Better Auth's JSON; and `/sign-in?next=` forms that used to put control characters (or another origin) in a
 * Location header. A route, page or procedure added later is walked without editing this file.
 */

const OWNER = { email: "owner@guard.test", password: "owner-password-1" };
const NUL_DETAIL = "Invalid input: text must not contain NUL (U+0000) characters";

/** Path segments that do not decode to a string Quarry can hold: invalid UTF-8, overlong, a surrogate, NUL, bad %. */
const BAD_SEGMENTS = ["%FF", "%C0%AF", "%ED%A0%80", "plain%00rag", "%00", "%E0%80", "a%", "%G1", "%F0%9F%98"];

type Auth = "none" | "token" | "session";
const AUTHS: Auth[] = ["none", "token", "session"];

let quarry: QuarryProcess;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let projectId: string;
let teamId: string;

const headersFor = (auth: Auth): Record<string, string> =>
  auth === "token"
    ? { Authorization: `Bearer ${quarry.token}` }
    : auth === "session"
      ? { Cookie: owner.cookie, Origin: client.origin }
      : {};

/** Plausible values for every path parameter name, so that only the segment under test is wrong. */
const goodParams = (): Record<string, string> => ({
  projectId,
  teamId,
  flowName: "plain-rag",
  name: "plain-rag",
  kind: "datasets",
  nodeId: "dataset-1764000000001",
  sourceId: crypto.randomUUID(),
  fileId: crypto.randomUUID(),
  buildId: crypto.randomUUID(),
  pageNumber: "1",
  endpointId: crypto.randomUUID(),
  token: "no-such-invitation",
  trpc: "dashboard.account.me",
});

type Outcome = { status: number; contentType: string; body: unknown };

const send = async (url: string, init: RequestInit): Promise<Outcome> => {
  const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(30_000), ...init });
  const contentType = res.headers.get("content-type") ?? "";
  // An event stream (a valid projectId with a session) stays open: its status is all there is to check.
  if (!contentType.includes("json")) {
    await res.body?.cancel();
    return { status: res.status, contentType, body: null };
  }
  return { status: res.status, contentType, body: await res.json().catch(() => null) };
};

const hasDetail = (o: Outcome) =>
  o.contentType.includes("application/json") && typeof (o.body as { detail?: unknown })?.detail === "string";

/** The error shape of the route that answered: tRPC's, Better Auth's, or `{detail}` for all other routes. */
const hasErrorShape = (template: string, o: Outcome) => {
  const body = o.body as { error?: { json?: { message?: unknown } }; message?: unknown } | null;
  // tRPC's own errors, or the route's `{detail}` when it refuses before tRPC runs (a cross-origin POST).
  if (template.startsWith("/api/trpc")) return typeof body?.error?.json?.message === "string" || hasDetail(o);
  if (template.startsWith("/api/auth")) return o.status === 404 || typeof body?.message === "string";
  return hasDetail(o);
};

/** Runs `jobs` a few at a time (two cores: no flood), collecting a line for every answer that breaks `check`. */
const walk = async <T>(jobs: T[], run: (job: T) => Promise<string | null>) => {
  const failures: string[] = [];
  for (let i = 0; i < jobs.length; i += 6) {
    for (const failure of await Promise.all(jobs.slice(i, i + 6).map(run))) if (failure) failures.push(failure);
  }
  return failures;
};

beforeAll(async () => {
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      QUARRY_AUTH_ATTEMPTS_PER_MINUTE: "1000",
      // Thousands of requests with one token: the rate limit has its own test (limits.int.test.ts).
      QUARRY_RATE_LIMIT_PER_MIN: "0",
    },
  });
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
  teamId = me.teams[0]!.id;
  projectId = me.teams[0]!.projects[0]!.id;
});

afterAll(async () => quarry?.dispose());

describe("a path that does not decode is refused before routing and auth", () => {
  it("answers 400 {detail} on every API route, method and credential", async () => {
    const routes = routeFiles().filter((r) => r.template.startsWith("/api/"));
    expect(routes.length).toBeGreaterThan(30);
    const jobs = routes.flatMap((route) => {
      const params = templateParams(route.template);
      // A static route gets the bad segment appended: the path no longer names it, and must still not fail.
      const urls = params.length
        ? params.flatMap((param) =>
            BAD_SEGMENTS.map((bad) => fillTemplate(route.template, { ...goodParams(), [param]: bad })),
          )
        : BAD_SEGMENTS.map((bad) => `${route.template}/${bad}`);
      const methods = route.methods.length ? route.methods : ["GET" as const];
      return urls.flatMap((url) => methods.flatMap((method) => AUTHS.map((auth) => ({ url, method, auth }))));
    });
    const failures = await walk(jobs, async ({ url, method, auth }) => {
      const o = await send(`${quarry.url}${url}`, { method, headers: headersFor(auth) });
      return o.status === 400 && hasDetail(o)
        ? null
        : `${method} ${url} (${auth}): ${o.status} ${JSON.stringify(o.body)}`;
    });
    expect(failures).toEqual([]);
  }, 300_000); // about 5,000 requests: 40-60 s on two busy cores

  it("answers 400 on every page", async () => {
    const pages = pageFiles();
    expect(pages.length).toBeGreaterThan(5);
    const jobs = pages.flatMap((page) => {
      const params = templateParams(page.template);
      const urls = params.length
        ? params.flatMap((param) =>
            BAD_SEGMENTS.map((bad) => fillTemplate(page.template, { ...goodParams(), [param]: bad })),
          )
        : BAD_SEGMENTS.map((bad) => `${page.template.replace(/\/$/, "")}/${bad}`);
      return urls.flatMap((url) => (["none", "session"] as const).map((auth) => ({ url, auth })));
    });
    const failures = await walk(jobs, async ({ url, auth }) => {
      const o = await send(`${quarry.url}${url}`, { headers: headersFor(auth) });
      return o.status === 400 ? null : `GET ${url} (${auth}): ${o.status}`;
    });
    expect(failures).toEqual([]);
  });

  it("answers 400 {detail} on a flow host and the flow list host, before the rewrite", async () => {
    const failures: string[] = [];
    for (const host of ["plain-rag.flows.example.test", "flows.example.test"]) {
      for (const bad of BAD_SEGMENTS) {
        for (const auth of ["none", "token"] as const) {
          const res = await rawRequest(`${quarry.url}/${bad}`, { headers: { host, ...headersFor(auth) } });
          const detail = (() => {
            try {
              return typeof (JSON.parse(res.text) as { detail?: unknown }).detail === "string";
            } catch {
              return false;
            }
          })();
          if (res.status !== 400 || !detail) failures.push(`${host}/${bad} (${auth}): ${res.status} ${res.text}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("U+0000 in any string input is refused with 400", () => {
  it("in the query and JSON body of every API route, with a token and with a session", async () => {
    const routes = routeFiles().filter(
      // The job runner's endpoint answers only signed Inngest calls; a PUT there would register with a server.
      (r) => r.template.startsWith("/api/") && r.template !== "/api/inngest",
    );
    const jobs = routes.flatMap((route) =>
      route.methods.flatMap((method) => (["token", "session"] as const).map((auth) => ({ route, method, auth }))),
    );
    const failures = await walk(jobs, async ({ route, method, auth }) => {
      const url = `${quarry.url}${fillTemplate(route.template, goodParams())}?q=a%00b`;
      const body = method === "GET" ? undefined : JSON.stringify({ query: "a\u0000b", name: "a\u0000b" });
      const o = await send(url, {
        method,
        headers: { ...headersFor(auth), ...(body ? { "Content-Type": "application/json" } : {}) },
        body,
      });
      if (o.status < 400 && route.template.endsWith("/events")) return null; // the stream ignores the query
      const ok = o.status < 500 && (o.status < 400 || hasErrorShape(route.template, o));
      return ok ? null : `${method} ${route.template} (${auth}): ${o.status} ${JSON.stringify(o.body)}`;
    });
    expect(failures).toEqual([]);
  });

  it("in a path parameter of the public API (GET, POST, /datasets, /deploy)", async () => {
    const token = headersFor("token");
    const flow = `${quarry.url}/api/public/v1/flows/plain%00rag`;
    for (const [method, url] of [
      ["GET", flow],
      ["POST", flow],
      ["GET", `${flow}/datasets`],
      ["POST", `${flow}/deploy`],
    ] as const) {
      const o = await send(url, {
        method,
        headers: { ...token, "Content-Type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(o.status, `${method} ${url}`).toBe(400);
      expect(hasDetail(o)).toBe(true);
    }
  });

  type Procedure = { _def: { type: "query" | "mutation" | "subscription" } };
  const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>).map(
    ([path, p]) => ({ path, type: p._def.type as "query" | "mutation" }),
  );

  it("in the input of every tRPC procedure, before auth, with and without a session", async () => {
    expect(procedures.length).toBeGreaterThan(50);
    const jobs = procedures.flatMap((p) => [null, "session" as const].map((auth) => ({ ...p, auth })));
    const failures = await walk(jobs, async ({ path, type, auth }) => {
      const res = await client.call(auth ? owner : null, path, { projectId, teamId, note: "a\u0000b" }, type);
      return res.status === 400 && res.message === NUL_DETAIL
        ? null
        : `${path} (${auth ?? "none"}): ${res.status} ${res.message}`;
    });
    expect(failures).toEqual([]);
  });

  it("in the fields that reached the database: search, conversation, team name, test set name", async () => {
    const cases = [
      ["dashboard.search.query", { projectId, query: "gra\u0000nite" }, "query"],
      ["dashboard.answers.turns", { projectId, conversationId: "c\u0000" }, "query"],
      ["dashboard.account.createTeam", { name: "Team\u0000" }, "mutation"],
      [
        "dashboard.evaluation.importTestSet",
        { projectId, name: "set\u0000", format: "jsonl", content: '{"question":"q","expected_answer":"a"}' },
        "mutation",
      ],
    ] as const;
    for (const [path, input, type] of cases) {
      const res = await client.call(owner, path, input, type);
      expect(res.status, `${path}: ${res.message}`).toBe(400);
      expect(res.message).toBe(NUL_DETAIL);
    }
  });

  it("in Better Auth's JSON body (update-user name, sign-in email), in its own error shape", async () => {
    const update = await client.authPost("/update-user", { name: "Olga\u0000" }, { Cookie: owner.cookie });
    expect(update.status).toBe(400);
    expect(((await update.json()) as { message?: string }).message).toBe(NUL_DETAIL);
    const signIn = await client.authPost("/sign-in/email", { email: "a\u0000@guard.test", password: "x".repeat(10) });
    expect(signIn.status).toBe(400);
    // An invitation cookie that does not decode is no invitation.
    const signUp = await client.authPost(
      "/sign-up/email",
      { name: "Mallory", email: "mallory@guard.test", password: "mallory-password-1" },
      { Cookie: "quarry_invite=%FF" },
    );
    expect(signUp.status).toBeGreaterThanOrEqual(400);
    expect(signUp.status).toBeLessThan(500);
    // The name is unchanged.
    const session = await fetch(`${quarry.url}/api/auth/get-session`, { headers: { Cookie: owner.cookie } });
    expect(((await session.json()) as { user: { name: string } }).user.name).not.toContain("\u0000");
  });
});

describe("/sign-in?next= follows only a path of this app", () => {
  const locationOf = async (next: string) => {
    const res = await fetch(`${quarry.url}/sign-in?next=${encodeURIComponent(next)}`, {
      headers: { Cookie: owner.cookie },
      redirect: "manual",
    });
    await res.body?.cancel();
    return { status: res.status, location: res.headers.get("location") ?? "" };
  };

  it("sends a signed-in user to / for every form that leaves the origin or holds control characters", async () => {
    const forms = [
      "/\t/evil.test",
      "/\n/evil.test",
      "//evil.test",
      "/\\evil.test",
      "\\\\evil",
      "https://evil.test",
      "/.//evil.test",
      "/a\r\nSet-Cookie: x=1",
      "/a\rb",
      "/a\nb",
      "javascript:alert(1)",
      "/\u0000",
    ];
    for (const next of forms) {
      const { status, location } = await locationOf(next);
      expect(status, JSON.stringify(next)).toBe(307);
      expect(location, JSON.stringify(next)).toBe("/");
    }
  });

  it("keeps a same-origin path, with non-ASCII percent-encoded in the header", async () => {
    expect(await locationOf("/ok/path?x=1")).toEqual({ status: 307, location: "/ok/path?x=1" });
    const { status, location } = await locationOf("/café");
    expect(status).toBe(307);
    expect(location).toBe("/caf%C3%A9");
  });
});

it("walks every method the route files export", () => {
  const methods = new Set(routeFiles().flatMap((r) => r.methods));
  expect([...methods].sort()).toEqual([...METHODS].sort());
});
