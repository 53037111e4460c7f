import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import superjson from "superjson";
import { ZodError } from "zod";
import { AppError, type AppErrorCode } from "../errors";
import type { Permission } from "../generated/prisma/enums";
import { isUuid } from "../ids";
import { getProject } from "../projects/service";
import type { Context } from "./context";

// 1. Error mapping: the domain throws AppError; tRPC clients see the matching code and the same message.
const trpcCode: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_ALLOWED: "METHOD_NOT_SUPPORTED",
  CONFLICT: "CONFLICT",
  LENGTH_REQUIRED: "BAD_REQUEST",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNPROCESSABLE: "UNPROCESSABLE_CONTENT",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  INTERNAL: "INTERNAL_SERVER_ERROR",
  TIMEOUT: "TIMEOUT",
};

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter: ({ shape, error }) => {
    const cause = error.cause;
    // Never leak internals of unexpected errors to the browser; the log keeps them.
    const message =
      cause instanceof AppError || error.code !== "INTERNAL_SERVER_ERROR" ? shape.message : "Internal server error";
    const zodIssues = cause instanceof ZodError ? cause.issues.map((i) => i.message) : null;
    return { ...shape, message, data: { ...shape.data, zodIssues, stack: undefined } };
  },
});

const toTrpcErrors = t.middleware(async ({ next, ctx, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: trpcCode[cause.code], message: cause.message, cause });
    }
    // Input checked inside a procedure (e.g. multipart form fields) is the caller's mistake, not a server error.
    if (cause instanceof ZodError) throw new TRPCError({ code: "BAD_REQUEST", message: "Invalid input", cause });
    if (result.error.code === "INTERNAL_SERVER_ERROR") {
      ctx.logger.error({ err: cause ?? result.error, path }, "procedure failed");
    }
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

// 2. The procedure ladder.
export const publicProcedure = t.procedure.use(toTrpcErrors);

/** Public REST: a valid, unrevoked API token. Narrows ctx.auth to the token's project. */
export const tokenProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.auth.kind !== "token") throw new AppError("UNAUTHORIZED", "Invalid authentication credentials");
  return next({ ctx: { auth: ctx.auth, projectId: ctx.auth.projectId } });
});

/** Public REST with the permission the contract assigns to the operation (GET read, POST write, ...). */
export const apiProcedure = (permission: Permission) =>
  tokenProcedure.use(({ ctx, next }) => {
    if (!ctx.auth.permissions.includes(permission)) throw new AppError("FORBIDDEN", "Permission denied");
    return next();
  });

/** Dashboard: the local operator. */
export const operatorProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.auth.kind !== "local") throw new AppError("UNAUTHORIZED", "Sign-in required");
  return next();
});

/** Dashboard, inside one project: the input names the project, the middleware checks it exists. */
export const projectProcedure = operatorProcedure.use(async ({ ctx, next, getRawInput }) => {
  const raw = (await getRawInput()) as { projectId?: unknown } | undefined;
  if (!isUuid(raw?.projectId)) throw new AppError("BAD_REQUEST", "Invalid input: projectId is required");
  const project = await getProject(raw.projectId);
  return next({ ctx: { ...ctx, projectId: project.id, project } });
});

export { TRPCError };
