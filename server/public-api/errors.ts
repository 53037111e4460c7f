import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { AppError } from "../errors";
import type { Logger } from "../logger";

/** Exact `detail` strings of the contract that several endpoints share. */
export const DETAIL = {
  unauthorized: "Invalid authentication credentials",
  forbidden: "Permission denied",
  invalidJson: "Invalid JSON body",
  notFound: "Not Found",
  methodNotAllowed: "Method Not Allowed",
  internal: "Internal server error",
} as const;

export const detailResponse = (status: number, detail: string, headers?: HeadersInit): Response => {
  const response = Response.json({ detail }, { status, headers });
  if (status === 401) response.headers.set("WWW-Authenticate", "Bearer");
  return response;
};

/**
 * A zod failure becomes one plain sentence. Our schemas carry the contract's texts (custom issues, or messages that
 * name their field); zod's own messages get the field put in front.
 */
const zodDetail = (error: ZodError): string => {
  const issue = error.issues[0];
  if (!issue) return "Invalid input";
  const path = issue.path.join(".");
  const field = String(issue.path.at(-1) ?? "");
  if (!path || issue.code === "custom" || (field && issue.message.includes(field))) return issue.message;
  return `Invalid input: ${path}: ${issue.message.replace(/^Invalid input:\s*/, "")}`;
};

/**
 * The message tRPC gives the error it throws when a procedure's response fails its `.output()` schema
 * (createOutputMiddleware in @trpc/server 11); its cause is the ZodError, which must not read as the client's 400.
 */
const OUTPUT_VALIDATION_FAILED = "Output validation failed";

/** Maps anything a procedure throws to the contract's `{detail}` body and status. */
export const errorResponse = (error: unknown, log: Logger, fallbackDetail: string = DETAIL.internal): Response => {
  if (error instanceof TRPCError && error.message === OUTPUT_VALIDATION_FAILED) {
    // Our response broke its own schema: an internal error like any other, logged with the schema's complaint.
    log.error({ err: error.cause ?? error }, "public API response failed its schema");
    return detailResponse(500, fallbackDetail);
  }
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof AppError) {
    const retry = cause.retryAfterS === undefined ? undefined : { "Retry-After": String(cause.retryAfterS) };
    return detailResponse(cause.status, cause.message, retry);
  }
  if (cause instanceof ZodError) return detailResponse(400, zodDetail(cause));
  if (error instanceof TRPCError && error.code === "BAD_REQUEST") return detailResponse(400, error.message);
  log.error({ err: cause }, "public API request failed");
  return detailResponse(500, fallbackDetail);
};
