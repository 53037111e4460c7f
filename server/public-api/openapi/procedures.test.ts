import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { appRouter } from "@/server/trpc/root";
import { routeFiles } from "@/server/testing/route-files";
import { API_BASE, PUBLIC_OPERATIONS } from "./registry";

/**
 * One source of truth: each documented operation names the procedure its route file calls, and the document's
 * schemas are that procedure's own — its `.output()` schema (kept on the `checked` parser) and, where the procedure
 * takes the request as it arrives, its `.input()` schema.
 */

type Def = { inputs: z.ZodType[]; output?: { schema?: z.ZodType } };
const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: Def }> } })._def.procedures;

/** Route files by URL template with `{x}` and `[x]` alike, so `/sources/builds/{build_id}` finds `[buildId]`. */
const shape = (path: string) => path.replace(/\{[^}]+\}|\[[^\]]+\]/g, "{}");
const sources = new Map(routeFiles().map((r) => [shape(r.template), r.source]));
const fileOf = (path: string) =>
  sources.get(shape(`${API_BASE}${path}`)) ??
  sources.get(shape(`${API_BASE}${path}`).replace(/^(\/api\/public\/v1\/flows\/\{\})\/[a-z-]+(\/\{\})?$/, "$1/{}$2"));

/** A procedure handed a transport wrapper (the raw body, the upload) parses the documented schema itself. */
const takesRequestAsIs = (input: z.ZodType | undefined) => {
  const shapeOf = (input as unknown as { shape?: Record<string, unknown> })?.shape;
  return !!input && !(shapeOf && ("body" in shapeOf || "upload" in shapeOf));
};

describe("the registry names each route's own procedure and schemas", () => {
  const operations = PUBLIC_OPERATIONS.filter((op) => op.form !== "flow-host" && op.procedure);

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", (_, op) => {
    const source = fileOf(op.path);
    expect(source, `no route file for ${op.path}`).toBeDefined();
    expect(source).toContain(`api.${op.procedure}(`);
    const def = procedures[`publicApi.${op.procedure}`]?._def;
    expect(def, `no procedure publicApi.${op.procedure}`).toBeDefined();

    const output = def!.output?.schema as (z.ZodType & { options?: z.ZodType[] }) | undefined;
    expect(output, "the procedure's .output() is not a checked() schema").toBeDefined();
    // A procedure that can also stream answers with a union: the document describes its JSON member.
    expect(output === op.response || !!output?.options?.includes(op.response)).toBe(true);

    const documented = op.query ?? (op.body && "json" in op.body ? op.body.json : undefined);
    if (documented && takesRequestAsIs(def!.inputs[0])) expect(def!.inputs[0]).toBe(documented);
  });
});
