import { createCaller } from "../trpc/root";
import type { Context } from "../trpc/context";
import { errorResponse } from "../public-api/errors";

/** The public REST API's procedures, called in-process with a token's context: the same caller the routes use. */
export type PublicApi = ReturnType<typeof createCaller>["publicApi"];

export const publicApiFor = (ctx: Context): PublicApi => createCaller(ctx).publicApi;

/** What a REST route would answer for this error (`{detail}` and status), for a tool's error result. */
export const errorDetail = async (error: unknown, ctx: Context): Promise<{ status: number; detail: string }> => {
  const response = errorResponse(error, ctx.logger);
  const { detail } = (await response.json()) as { detail: string };
  return { status: response.status, detail };
};
