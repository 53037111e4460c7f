import "server-only";
import { after } from "next/server";
import { apiTokenTouchDue, touchApiToken } from "../auth/api-tokens";
import { AnswerStream } from "../http/answer-stream";
import { AppError } from "../errors";
import { createCaller } from "../trpc/root";
import { createTokenContext } from "../trpc/context";
import { DETAIL, detailResponse, errorResponse } from "./errors";
import { isUpload, readBodyText, takeRequestSlot, withUploadSlot } from "./limits";

type PublicApi = ReturnType<typeof createCaller>["publicApi"];

/**
 * JSON answers up to this size are sent as they are: Next's server gzips every compressible response above 1 KiB,
 * and for a search's answer (about 10 KB) that was 5 % of the app's CPU per query, more than it saves on the short
 * links an API like this is called over. `Cache-Control: no-transform` is what its compression (and a proxy's)
 * honours; larger answers (long listings) are still compressed.
 */
const UNCOMPRESSED_JSON_CHARS = 32 * 1024;

const jsonResponse = (result: unknown, headers?: HeadersInit) => {
  const body = JSON.stringify(result) as string | undefined;
  if (body === undefined) return Response.json(result, { headers });
  const out = new Headers(headers);
  if (!out.has("content-type")) out.set("content-type", "application/json");
  if (body.length <= UNCOMPRESSED_JSON_CHARS && !out.has("cache-control")) out.set("cache-control", "no-transform");
  return new Response(body, { headers: out });
};

/**
 * The one wrapper every public REST route uses: Bearer token → tRPC context → the procedure → JSON, and any error
 * → the contract's status with `{detail}`. Authentication is checked here first, before `call` can read a byte of
 * the body; then the per-token limits (limits.ts). Permissions and validation live in the procedures.
 */
export const handlePublic = async (
  req: Request,
  call: (api: PublicApi) => Promise<unknown>,
  options: { failureDetail?: string; headers?: HeadersInit } = {},
): Promise<Response> => {
  const ctx = await createTokenContext(req);
  if (ctx.auth.kind !== "token") return detailResponse(401, DETAIL.unauthorized);
  const tokenId = ctx.auth.tokenId;
  try {
    takeRequestSlot(tokenId);
    const run = () => call(createCaller(ctx).publicApi);
    const result = await (isUpload(req) ? withUploadSlot(tokenId, run) : run());
    // Next's after() costs a tenth of this wrapper's CPU; lastUsedAt is written once a minute, so ask only then.
    if (apiTokenTouchDue(tokenId)) after(() => touchApiToken(tokenId));
    if (result instanceof AnswerStream) return result.toResponse(options.headers);
    // A procedure that streams (a flow run with "stream": true) answers with its own Response.
    if (result instanceof Response) return result;
    return jsonResponse(result, options.headers);
  } catch (error) {
    return errorResponse(error, ctx.logger, options.failureDetail);
  }
};

/**
 * Request data before validation. Typed loosely on purpose: the procedure's zod schema is what checks it, and it
 * answers with the contract's 400 texts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UntrustedInput = any;

/** Query string as a plain record; a repeated key becomes an array (the schemas also accept comma lists). */
export const readQuery = (req: Request): UntrustedInput => {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URL(req.url).searchParams) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
};

/**
 * JSON body, at most `QUARRY_MAX_JSON_BODY_KB` (413 beyond); an empty body counts as `{}` so required-field errors
 * name the missing field.
 */
export const readJson = async (req: Request): Promise<UntrustedInput> => {
  const text = await readBodyText(req);
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", DETAIL.invalidJson);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new AppError("BAD_REQUEST", DETAIL.invalidJson);
  return parsed as UntrustedInput;
};

/** Route handlers for methods a path does not support. */
const methodNotAllowed = async () => detailResponse(405, DETAIL.methodNotAllowed);
export const notAllowed = {
  GET: methodNotAllowed,
  POST: methodNotAllowed,
  PUT: methodNotAllowed,
  PATCH: methodNotAllowed,
  DELETE: methodNotAllowed,
};
