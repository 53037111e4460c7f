import { describe, expect, it, vi } from "vitest";
import { executorOnly } from "./executor-only";
import { signBody } from "./inngest-sdk";

const KEY = "signkey-local-0123456789abcdef";
const BODY = JSON.stringify({ ctx: { run_id: "r" }, event: { data: {}, name: "x" }, steps: {}, version: 2 });

const handlers = () => {
  const seen: string[] = [];
  const answer = (method: string) =>
    vi.fn(async (req: Request) => {
      seen.push(`${method} ${req.method === "GET" ? "" : await req.text()}`);
      return new Response("from serve()", { status: 200 });
    });
  return { seen, handlers: { GET: answer("GET"), POST: answer("POST"), PUT: answer("PUT") } };
};

const request = (method: string, headers: Record<string, string> = {}, body: string | undefined = BODY) =>
  new Request("http://127.0.0.1/api/inngest?fnId=f&stepId=step", {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: method === "GET" ? undefined : body,
  });

const read = async (res: Response) => ({ status: res.status, allow: res.headers.get("allow"), body: await res.text() });

describe("executorOnly (local job runner)", () => {
  const local = (signingKey: string | null = KEY) => {
    const h = handlers();
    return {
      ...h,
      route: executorOnly(h.handlers, { runner: () => "local", signingKey: () => signingKey ?? undefined }),
    };
  };

  it("refuses GET and PUT without asking serve(): no introspection, no registration", async () => {
    const { route, seen } = local();
    for (const method of ["GET", "PUT"] as const) {
      expect(await read(await route[method](request(method)))).toEqual({
        status: 405,
        allow: "POST",
        body: JSON.stringify({ detail: "Method Not Allowed" }),
      });
    }
    expect(seen).toEqual([]);
  });

  it("passes on only POSTs signed with this process's key, body intact", async () => {
    const { route, seen } = local();
    const refused = {
      status: 401,
      allow: null,
      body: JSON.stringify({ detail: "Invalid authentication credentials" }),
    };
    expect(await read(await route.POST(request("POST")))).toEqual(refused);
    const other = signBody(BODY, "signkey-local-ffff");
    expect(await read(await route.POST(request("POST", { "x-inngest-signature": other })))).toEqual(refused);
    const stale = signBody(BODY, KEY, Date.now() - 10 * 60_000);
    expect(await read(await route.POST(request("POST", { "x-inngest-signature": stale })))).toEqual(refused);
    const tampered = signBody(BODY, KEY);
    const changed = request("POST", { "x-inngest-signature": tampered }, BODY.replace('"r"', '"q"'));
    expect(await read(await route.POST(changed))).toEqual(refused);
    expect(await read(await route.POST(request("POST", { "x-inngest-signature": "t=1&s=zz" })))).toEqual(refused);
    expect(seen).toEqual([]);

    const signed = await route.POST(request("POST", { "x-inngest-signature": signBody(BODY, KEY) }));
    expect(await read(signed)).toMatchObject({ status: 200, body: "from serve()" });
    expect(seen).toEqual([`POST ${BODY}`]);
  });

  it("refuses every call when no signing key was generated (no executor in this process)", async () => {
    const { route, seen } = local(null);
    const res = await route.POST(request("POST", { "x-inngest-signature": signBody(BODY, KEY) }));
    expect(res.status).toBe(401);
    expect(seen).toEqual([]);
  });
});

describe("executorOnly (an Inngest server)", () => {
  it("leaves every method to serve(), as the SDK documents", async () => {
    const { handlers: h, seen } = handlers();
    const route = executorOnly(h, { runner: () => "inngest", signingKey: () => undefined });
    for (const method of ["GET", "PUT", "POST"] as const)
      expect((await route[method](request(method))).status).toBe(200);
    expect(seen).toEqual(["GET ", `PUT ${BODY}`, `POST ${BODY}`]);
  });
});
