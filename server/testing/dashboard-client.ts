/**
 * The dashboard as a browser uses it, over real HTTP: Better Auth's sign-in/sign-up (session cookie) and the tRPC
 * endpoint (superjson wire format, GET for queries, POST with the app's Origin for mutations).
 */

export type Session = { cookie: string };

/** `dashboard.account.me`: the signed-in user, their teams and each team's projects. */
export type Me = {
  userId: string;
  email: string;
  teams: { id: string; name: string; role: string; projects: { id: string; name: string }[] }[];
};

const sessionCookie = (res: Response): string => {
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  const session = cookies.find((c) => c.includes("session_token="));
  if (!session) throw new Error(`no session cookie (HTTP ${res.status})`);
  return cookies.join("; ");
};

export const dashboardClient = (baseUrl: string) => {
  const origin = new URL(baseUrl).origin;

  const authPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/api/auth${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin, ...headers },
      body: JSON.stringify(body),
    });

  const signIn = async (email: string, password: string): Promise<Session> => {
    const res = await authPost("/sign-in/email", { email, password });
    if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
    return { cookie: sessionCookie(res) };
  };

  const signUp = async (
    user: { name: string; email: string; password: string },
    inviteToken?: string,
  ): Promise<Session> => {
    const res = await authPost("/sign-up/email", user, inviteToken ? { "x-quarry-invite": inviteToken } : {});
    if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
    return { cookie: sessionCookie(res) };
  };

  /** A raw tRPC call; returns the HTTP status and the decoded result or error. */
  const call = async (
    session: Session | null,
    path: string,
    input: unknown,
    type: "query" | "mutation",
    headers: Record<string, string> = {},
  ) => {
    const cookie: Record<string, string> = session ? { Cookie: session.cookie } : {};
    const res =
      type === "query"
        ? await fetch(`${baseUrl}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, {
            headers: { ...cookie, ...headers },
          })
        : await fetch(`${baseUrl}/api/trpc/${path}`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Origin: origin, ...cookie, ...headers },
            body: JSON.stringify({ json: input }),
          });
    const body = (await res.json().catch(() => null)) as {
      result?: { data?: { json?: unknown } };
      error?: { json?: { message?: string } };
      detail?: string;
    } | null;
    return {
      status: res.status,
      data: body?.result?.data?.json,
      message: body?.error?.json?.message ?? body?.detail,
    };
  };

  /** A call that must succeed; returns its data. */
  const ok = async <T = unknown>(session: Session, path: string, input: unknown, type: "query" | "mutation") => {
    const res = await call(session, path, input, type);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${res.message}`);
    return res.data as T;
  };

  /** Who the session is: its user, teams and projects. */
  const me = (session: Session) => ok<Me>(session, "dashboard.account.me", undefined, "query");

  return { origin, signIn, signUp, call, ok, me, authPost };
};

/**
 * A request through node:http, which sends the Host header it is given (fetch always sends the URL's own host), for
 * tests that forge one.
 */
export const rawRequest = async (
  url: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: FormData } = {},
) => {
  const { request } = await import("node:http");
  let payload: Buffer | undefined;
  const allHeaders = { ...headers };
  if (body) {
    const encoded = new Response(body);
    payload = Buffer.from(await encoded.arrayBuffer());
    allHeaders["content-type"] = encoded.headers.get("content-type")!;
    allHeaders["content-length"] = String(payload.length);
  }
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>(
    (resolve, reject) => {
      const req = request(url, { method, headers: allHeaders }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on("error", reject);
      req.end(payload);
    },
  );
};
