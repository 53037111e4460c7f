import { compileErrors, validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { SEGMENT_KINDS } from "@/server/flows/service";
import { routeFiles } from "@/server/testing/route-files";
import { buildOpenApiDocument } from "./document";
import { API_BASE, PUBLIC_OPERATIONS } from "./registry";

/**
 * The document is valid OpenAPI 3.1, and it names exactly the operations the app registers: every method a route
 * file under app/api/public/v1 implements (the flow node routes `[kind]` once per kind, and every flow route in its
 * host form too), and nothing the app does not serve.
 */

const doc = buildOpenApiDocument();

/** `{build_id}` and `[buildId]` alike become `{}`: parameter names differ between files and the document. */
const shape = (path: string) => path.replace(/\{[^}]+\}|\[[^\]]+\]/g, "{}").replace(/\/$/, "");

/** The methods a route file implements (those not taken from `notAllowed`), as `METHOD /path` keys. */
const registeredOperations = (): string[] =>
  routeFiles()
    .filter((r) => r.template.startsWith(API_BASE) && !r.template.includes("[..."))
    .flatMap((r) => {
      const refused = new Set(
        [...r.source.matchAll(/export const \{([^}]*)\}\s*=\s*notAllowed/g)].flatMap((m) =>
          m[1]!.split(",").map((s) => s.trim()),
        ),
      );
      const template = r.template.slice(API_BASE.length) || "/";
      // The catch-all's known routes: `[kind]` is one of the node segments the flow service knows.
      const paths = template.includes("[kind]")
        ? Object.keys(SEGMENT_KINDS).map((segment) => template.replace("[kind]", segment))
        : [template];
      return r.methods.filter((m) => !refused.has(m)).flatMap((m) => paths.map((p) => `${m} ${shape(p)}`));
    });

const documented = (form: "base" | "flow-path" | "flow-host") =>
  PUBLIC_OPERATIONS.filter((op) => op.form === form).map((op) => `${op.method.toUpperCase()} ${shape(op.path)}`);

describe("the OpenAPI document", () => {
  it("validates as OpenAPI 3.1", async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("documents every public route the app registers, and no other", () => {
    const registered = registeredOperations();
    expect(registered.length).toBeGreaterThan(40);
    const inDocument = [...documented("base"), ...documented("flow-path")];
    expect(
      registered.filter((r) => !inDocument.includes(r)),
      "routes missing from the document",
    ).toEqual([]);
    expect(
      inDocument.filter((d) => !registered.includes(d)),
      "documented but not served",
    ).toEqual([]);
  });

  it("gives every flow route its host form", () => {
    const hostForm = documented("flow-host");
    const flowPaths = documented("flow-path").map((p) => p.replace(" /flows/{}", " "));
    expect(hostForm.sort()).toEqual(flowPaths.sort());
    expect((doc.paths["/"] as { servers: { url: string }[] }).servers[0]!.url).toBe(
      "http://{flow_name}.flows.{app_host}",
    );
  });

  it("marks the legacy set deprecated, and only it", () => {
    const deprecated = PUBLIC_OPERATIONS.filter((op) => op.deprecated).map((op) => op.operationId);
    expect(deprecated.sort()).toEqual(
      PUBLIC_OPERATIONS.filter((op) => op.tag === "Legacy")
        .map((op) => op.operationId)
        .sort(),
    );
    expect(deprecated).toContain("legacyUpload");
  });

  it("describes errors in the contract's shape, with their sentences", () => {
    const getBuild = doc.paths["/sources/builds/{build_id}"]!.get as { responses: Record<string, unknown> };
    expect(Object.keys(getBuild.responses)).toEqual(["200", "400", "401", "403", "404", "500"]);
    expect(getBuild.responses["404"]).toMatchObject({
      content: {
        "application/json": { schema: { $ref: "#/components/schemas/Error" }, example: { detail: "Build not found" } },
      },
    });
  });

  it("names the values of the fields the schemas check by hand", () => {
    const ingest = doc.paths["/sources/ingest-url"]!.post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    const props = ingest.requestBody.content["application/json"]!.schema.properties;
    expect(props.method).toEqual({ type: "string", enum: ["auto", "fast", "balanced", "accurate", "agentic"] });
    expect(props.signal).toBeUndefined();
  });

  it("gives examples that pass the operation's own request schemas", () => {
    for (const op of PUBLIC_OPERATIONS.filter((o) => o.example)) {
      const { params = {}, query = {}, body = {} } = op.example!;
      if (op.query) expect(op.query.safeParse({ ...query, ...params }).error, op.operationId).toBeUndefined();
      const bodySchema = op.body && ("json" in op.body ? op.body.json : op.body.multipart);
      if (bodySchema) expect(bodySchema.safeParse(body).error, op.operationId).toBeUndefined();
    }
  });

  it("gives examples that pass the document's own schemas", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const problems: string[] = [];
    type Media = { schema: object; example?: unknown };
    type Op = {
      parameters: { name: string; schema: object; example?: unknown }[];
      requestBody?: { content: Record<string, Media> };
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, Op>)) {
        if (method === "servers") continue;
        const checks = [
          ...op.parameters.map((p) => [p.name, p.schema, p.example] as const),
          ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => [type, m.schema, m.example] as const),
        ];
        for (const [name, schema, example] of checks) {
          if (example !== undefined && !ajv.validate(schema, example))
            problems.push(`${method} ${path} ${name}: ${ajv.errorsText()}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
