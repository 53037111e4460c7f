import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A stand-in OpenID Connect provider on loopback, for tests of the real sign-in code (no identity provider can be
 * reached from here): discovery, an authorization endpoint that approves at once as the user the test chose, a token
 * endpoint that checks the client secret and the PKCE verifier and returns an RS256-signed id_token, userinfo and
 * JWKS.
 */

const base64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

export type FakeOidc = {
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** The person the next authorization approves. */
  actAs: (user: { email: string; name: string }) => void;
  close: () => Promise<void>;
};

type Person = { email: string; name: string };
type Grant = Person & { nonce?: string; challenge?: string; redirect: string };

/** The provider's keys, its client and what it has handed out so far. */
type Provider = {
  /** Known once the server listens; no request arrives before that. */
  issuer: string;
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  clientId: string;
  clientSecret: string;
  user: Person;
  codes: Map<string, Grant>;
  accessTokens: Map<string, Person>;
};

const sign = (provider: Provider, claims: Record<string, unknown>) => {
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid: provider.kid }));
  const body = base64url(JSON.stringify(claims));
  const signature = createSign("RSA-SHA256").update(`${header}.${body}`).sign(provider.privateKey);
  return `${header}.${body}.${base64url(signature)}`;
};
const subOf = (email: string) => createHash("sha256").update(email).digest("hex").slice(0, 24);

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

const discovery = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  userinfo_endpoint: `${issuer}/userinfo`,
  jwks_uri: `${issuer}/jwks`,
  response_types_supported: ["code"],
  subject_types_supported: ["public"],
  id_token_signing_alg_values_supported: ["RS256"],
  token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
  code_challenge_methods_supported: ["S256"],
  scopes_supported: ["openid", "email", "profile"],
});

/** Approves at once as the chosen user: a fresh code, sent back to the redirect URI with the state. */
const authorize = (provider: Provider, url: URL, res: ServerResponse) => {
  const redirect = url.searchParams.get("redirect_uri");
  if (url.searchParams.get("client_id") !== provider.clientId || !redirect) {
    return json(res, 400, { error: "invalid_request" });
  }
  const code = base64url(randomBytes(16));
  provider.codes.set(code, {
    ...provider.user,
    redirect,
    nonce: url.searchParams.get("nonce") ?? undefined,
    challenge: url.searchParams.get("code_challenge") ?? undefined,
  });
  const back = new URL(redirect);
  back.searchParams.set("code", code);
  back.searchParams.set("state", url.searchParams.get("state") ?? "");
  res.writeHead(302, { Location: back.toString() });
  return res.end();
};

const idToken = (provider: Provider, grant: Grant, now: number) =>
  sign(provider, {
    iss: provider.issuer,
    sub: subOf(grant.email),
    aud: provider.clientId,
    iat: now,
    exp: now + 3600,
    email: grant.email,
    email_verified: true,
    name: grant.name,
    ...(grant.nonce ? { nonce: grant.nonce } : {}),
  });

/** The token endpoint's answer to a form already read: client secret, code, redirect URI, then PKCE. */
const exchangeCode = (provider: Provider, req: IncomingMessage, form: URLSearchParams, res: ServerResponse) => {
  const basic = req.headers.authorization?.match(/^Basic (.+)$/)?.[1];
  const [id, secret] = basic
    ? Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent)
    : [form.get("client_id"), form.get("client_secret")];
  if (id !== provider.clientId || secret !== provider.clientSecret) return json(res, 401, { error: "invalid_client" });
  const grant = provider.codes.get(form.get("code") ?? "");
  provider.codes.delete(form.get("code") ?? "");
  if (!grant || grant.redirect !== form.get("redirect_uri")) return json(res, 400, { error: "invalid_grant" });
  const verifier = form.get("code_verifier");
  if (
    grant.challenge &&
    base64url(
      createHash("sha256")
        .update(verifier ?? "")
        .digest(),
    ) !== grant.challenge
  ) {
    return json(res, 400, { error: "invalid_grant", error_description: "PKCE verification failed" });
  }
  const now = Math.floor(Date.now() / 1000);
  const accessToken = base64url(randomBytes(16));
  provider.accessTokens.set(accessToken, grant);
  json(res, 200, {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: 3600,
    scope: "openid email profile",
    id_token: idToken(provider, grant, now),
  });
};

const token = (provider: Provider, req: IncomingMessage, res: ServerResponse) => {
  let raw = "";
  req.on("data", (c: Buffer) => (raw += c.toString()));
  req.on("end", () => exchangeCode(provider, req, new URLSearchParams(raw), res));
};

const userinfo = (provider: Provider, req: IncomingMessage, res: ServerResponse) => {
  const who = provider.accessTokens.get(req.headers.authorization?.replace(/^Bearer /, "") ?? "");
  if (!who) return json(res, 401, { error: "invalid_token" });
  return json(res, 200, { sub: subOf(who.email), email: who.email, email_verified: true, name: who.name });
};

const handle = (provider: Provider, req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? "/", provider.issuer);
  if (url.pathname === "/.well-known/openid-configuration") return json(res, 200, discovery(provider.issuer));
  if (url.pathname === "/jwks") {
    const jwk = { ...provider.publicKey.export({ format: "jwk" }), kid: provider.kid, alg: "RS256", use: "sig" };
    return json(res, 200, { keys: [jwk] });
  }
  if (url.pathname === "/authorize") return authorize(provider, url, res);
  if (url.pathname === "/token" && req.method === "POST") return token(provider, req, res);
  if (url.pathname === "/userinfo") return userinfo(provider, req, res);
  json(res, 404, { error: "not_found" });
};

export const startFakeOidc = async (): Promise<FakeOidc> => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const provider: Provider = {
    issuer: "",
    kid: base64url(randomBytes(8)),
    privateKey,
    publicKey,
    clientId: "quarry-test",
    clientSecret: base64url(randomBytes(16)),
    user: { email: "nobody@oidc.test", name: "Nobody" },
    codes: new Map(),
    accessTokens: new Map(),
  };
  const server: Server = createServer((req, res) => handle(provider, req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  provider.issuer = issuer;
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    actAs: (next) => {
      provider.user = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
