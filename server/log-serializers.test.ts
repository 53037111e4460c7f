import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { loggerOptions } from "./logger";
import { safeError } from "./log-serializers";

/** The app's logger settings writing into an array, one parsed object per line. */
const capture = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = pino({ ...loggerOptions(), level: "debug" }, stream);
  return { log, lines, last: () => lines.at(-1)! };
};

/** What pg hands to a pool's error handler: an Error that carries the whole client. */
class Client {
  connectionParameters = { user: "postgres", password: "pg-password-1", host: "127.0.0.1" };
  _types = { builtins: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`TYPE_${i}`, i])) };
  secretKey = 2875920;
}

const poolError = () =>
  Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET", client: new Client() });

describe("log serializers", () => {
  it("logs an error's type, message, code and stack, never the client it carries", () => {
    const { log, last } = capture();
    log.warn({ err: poolError() }, "idle database connection failed");
    const line = last();
    const { err } = JSON.parse(line) as { err: Record<string, unknown> };
    expect(Object.keys(err).sort()).toEqual(["code", "message", "stack", "type"]);
    expect(err).toMatchObject({ type: "Error", message: "Connection terminated unexpectedly", code: "ECONNRESET" });
    expect(line).not.toMatch(/pg-password-1|connectionParameters|TYPE_1|2875920/);
    expect(line.length).toBeLessThan(1500);
  });

  it("does the same for an error given first, nested in arguments, or as a cause", () => {
    const { log, lines } = capture();
    log.error(poolError(), "first argument");
    log.error({ args: [poolError(), "text"] }, "auth: failed");
    log.error({ err: new Error("outer", { cause: poolError() }) }, "with a cause");
    for (const line of lines) expect(line).not.toMatch(/pg-password-1|connectionParameters/);
    const caused = JSON.parse(lines[2]!) as { err: { cause: { message: string } } };
    expect(caused.err.cause.message).toBe("Connection terminated unexpectedly");
    expect(JSON.parse(lines[1]!)).toMatchObject({ args: [{ message: "Connection terminated unexpectedly" }, "text"] });
  });

  it("logs a request as its method and address only", () => {
    const { log, last } = capture();
    const req = new Request("http://127.0.0.1/api/public/v1/sources?x=1", {
      headers: { authorization: "Bearer qry_abcdef", cookie: "quarry.session_token=s3cr3t" },
    });
    log.info({ req, request: req }, "request");
    const line = last();
    expect(line).not.toMatch(/qry_abcdef|s3cr3t|cookie|authorization/i);
    expect(JSON.parse(line)).toMatchObject({
      req: { method: "GET", url: "http://127.0.0.1/api/public/v1/sources?x=1" },
    });
  });

  it("redacts secret-looking fields at any depth, keeps counts", () => {
    const { log, last } = capture();
    log.info(
      {
        signingKey: "signkey-local-abc",
        provider: { apiKey: "sk-live-123", password: "hunter2", clientSecret: "oidc-secret", model: "m1" },
        row: { encryptedKey: "v1.sealed-value", keyPrefix: "sk-li…" },
        headers: { Authorization: "Bearer qry_xyz" },
        token: "qry_top",
        usage: { inputTokens: 12 },
      },
      "settings",
    );
    const line = last();
    expect(line).not.toMatch(/signkey-local-abc|sk-live-123|hunter2|oidc-secret|qry_xyz|qry_top|sealed-value/);
    expect(JSON.parse(line)).toMatchObject({
      provider: { model: "m1" },
      row: { keyPrefix: "sk-li…" },
      usage: { inputTokens: 12 },
    });
  });

  it("keeps plain values as they are and stops at cycles", () => {
    const { log, last } = capture();
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    log.info({ buildId: "b1", pages: [1, 2], loop }, "plain");
    expect(JSON.parse(last())).toMatchObject({ buildId: "b1", pages: [1, 2], loop: { name: "loop" } });
  });

  it("safeError also takes what is not an Error", () => {
    expect(safeError("boom")).toEqual({ type: "string", message: "boom" });
    expect(safeError({ message: "m", code: 7, client: new Client() })).toEqual({
      type: "Object",
      message: "m",
      code: 7,
    });
  });
});
