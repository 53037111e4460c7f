import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import superjson from "superjson";
import { ZodError } from "zod";
import { AppError, type AppErrorCode } from "../errors";
import type { Permission } from "../generated/prisma/enums";
import { isUuid } from "../ids";
import { refuseNul } from "../input-guard";
import { PROJECT_DELETING_DETAIL } from "../projects/projects.schema";
import { membershipOf, projectAccess } from "../teams/service";
import type { TeamRole } from "../teams/teams.schema";
import { roleAtLeast } from "../teams/teams.schema";
import type { Context } from "./context";

/**
 * What a dashboard procedure requires, readable without calling it: the role rung records it here, and the role
 * integration test walks every dashboard procedure's meta to check the rung refuses everyone below it.
 */
export type ProcedureMeta = { access?: { scope: "user" } | { scope: "team" | "project"; minRole: TeamRole } };

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
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
  TIMEOUT: "TIMEOUT",
};

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
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

/**
 * Every string a procedure is given, whatever its schema and before its rung reads it, is refused with 400 when it
 * holds U+0000 (input-guard.ts): this covers the public REST routes (path parameters, query, JSON body), the
 * dashboard's routes and every tRPC call, without a check per procedure.
 */
const refuseNulInput = t.middleware(async ({ next, getRawInput }) => {
  refuseNul(await getRawInput());
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

// 2. The procedure ladder.
export const publicProcedure = t.procedure.use(toTrpcErrors).use(refuseNulInput);

/** Public REST: a valid, unrevoked API token. Narrows ctx.auth to the token's project. */
export const tokenProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.auth.kind !== "token") throw new AppError("UNAUTHORIZED", "Invalid authentication credentials");
  if (ctx.auth.projectDeleting) throw new AppError("CONFLICT", PROJECT_DELETING_DETAIL);
  return next({ ctx: { auth: ctx.auth, projectId: ctx.auth.projectId } });
});

/** Public REST with the permission the contract assigns to the operation (GET read, POST write, ...). */
export const apiProcedure = (permission: Permission) =>
  tokenProcedure.use(({ ctx, next }) => {
    if (!ctx.auth.permissions.includes(permission)) throw new AppError("FORBIDDEN", "Permission denied");
    return next();
  });

/** Dashboard: a signed-in user (session cookie). */
export const authedProcedure = publicProcedure.meta({ access: { scope: "user" } }).use(({ ctx, next }) => {
  if (ctx.auth.kind !== "session") throw new AppError("UNAUTHORIZED", "Sign-in required");
  return next({ ctx: { auth: ctx.auth, userId: ctx.auth.userId } });
});

const idFromInput = async (getRawInput: () => Promise<unknown>, key: "projectId" | "teamId") => {
  const raw = (await getRawInput()) as Record<string, unknown> | undefined;
  const id = raw?.[key];
  if (!isUuid(id)) throw new AppError("BAD_REQUEST", `Invalid input: ${key} is required`);
  return id;
};

const assertRole = (role: TeamRole, minRole: TeamRole) => {
  if (!roleAtLeast(role, minRole)) {
    throw new AppError("FORBIDDEN", `This needs the ${minRole} role or higher; you are ${role}`);
  }
};

/**
 * Dashboard, inside one team: the input names the team; the caller must be a member with at least `minRole`. A
 * non-member is told the team does not exist, so ids cannot be probed.
 */
export const teamProcedure = (minRole: TeamRole) =>
  authedProcedure.meta({ access: { scope: "team", minRole } }).use(async ({ ctx, next, getRawInput }) => {
    const teamId = await idFromInput(getRawInput, "teamId");
    const membership = await membershipOf({ userId: ctx.userId, teamId });
    if (!membership) throw new AppError("NOT_FOUND", "Team not found");
    const role = membership.role as TeamRole;
    assertRole(role, minRole);
    return next({ ctx: { teamId, role } });
  });

/**
 * Dashboard, inside one project: the input names the project; the caller must be a member of the team that owns
 * it, with at least `minRole`. Yields the trusted `ctx.projectId`; resolvers never take the project from elsewhere.
 */
export const projectProcedure = (minRole: TeamRole, { whileDeleting = false }: { whileDeleting?: boolean } = {}) =>
  authedProcedure.meta({ access: { scope: "project", minRole } }).use(async ({ ctx, next, getRawInput, type }) => {
    const projectId = await idFromInput(getRawInput, "projectId");
    const access = await projectAccess({ userId: ctx.userId, projectId });
    if (!access) throw new AppError("NOT_FOUND", "Project not found");
    assertRole(access.role, minRole);
    // A project being deleted can still be read (its settings page shows the progress), never changed, except by
    // the procedures about the deletion itself (`whileDeleting`: retrying a failed one).
    if (access.project.deletingAt && type !== "query" && !whileDeleting)
      throw new AppError("CONFLICT", PROJECT_DELETING_DETAIL);
    return next({
      ctx: { projectId: access.project.id, project: access.project, teamId: access.team.id, role: access.role },
    });
  });

export { TRPCError };
