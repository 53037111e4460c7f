import { createHash, createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";

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

export const startFakeOidc = async (): Promise<FakeOidc> => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = base64url(randomBytes(8));
  const clientId = "quarry-test";
  const clientSecret = base64url(randomBytes(16));
  let user = { email: "nobody@oidc.test", name: "Nobody" };
  const codes = new Map<
    string,
    { email: string; name: string; nonce?: string; challenge?: string; redirect: string }
  >();
  const accessTokens = new Map<string, { email: string; name: string }>();
  let issuer = "";

  const sign = (claims: Record<string, unknown>) => {
    const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid }));
    const body = base64url(JSON.stringify(claims));
    const signature = createSign("RSA-SHA256").update(`${header}.${body}`).sign(privateKey);
    return `${header}.${body}.${base64url(signature)}`;
  };
  const subOf = (email: string) => createHash("sha256").update(email).digest("hex").slice(0, 24);

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
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
    }
    if (url.pathname === "/jwks") {
      return json(200, { keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] });
    }
    if (url.pathname === "/authorize") {
      const redirect = url.searchParams.get("redirect_uri");
      if (url.searchParams.get("client_id") !== clientId || !redirect) return json(400, { error: "invalid_request" });
      const code = base64url(randomBytes(16));
      codes.set(code, {
        ...user,
        redirect,
        nonce: url.searchParams.get("nonce") ?? undefined,
        challenge: url.searchParams.get("code_challenge") ?? undefined,
      });
      const back = new URL(redirect);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString()));
      req.on("end", () => {
        const form = new URLSearchParams(raw);
        const basic = req.headers.authorization?.match(/^Basic (.+)$/)?.[1];
        const [id, secret] = basic
          ? Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent)
          : [form.get("client_id"), form.get("client_secret")];
        if (id !== clientId || secret !== clientSecret) return json(401, { error: "invalid_client" });
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!grant || grant.redirect !== form.get("redirect_uri")) return json(400, { error: "invalid_grant" });
        const verifier = form.get("code_verifier");
        if (
          grant.challenge &&
          base64url(
            createHash("sha256")
              .update(verifier ?? "")
              .digest(),
          ) !== grant.challenge
        ) {
          return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" });
        }
        const now = Math.floor(Date.now() / 1000);
        const accessToken = base64url(randomBytes(16));
        accessTokens.set(accessToken, grant);
        json(200, {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: 3600,
          scope: "openid email profile",
          id_token: sign({
            iss: issuer,
            sub: subOf(grant.email),
            aud: clientId,
            iat: now,
            exp: now + 3600,
            email: grant.email,
            email_verified: true,
            name: grant.name,
            ...(grant.nonce ? { nonce: grant.nonce } : {}),
          }),
        });
      });
      return;
    }
    if (url.pathname === "/userinfo") {
      const who = accessTokens.get(req.headers.authorization?.replace(/^Bearer /, "") ?? "");
      if (!who) return json(401, { error: "invalid_token" });
      return json(200, { sub: subOf(who.email), email: who.email, email_verified: true, name: who.name });
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    actAs: (next) => {
      user = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
