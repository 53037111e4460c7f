/**
 * A client written against the types openapi-typescript generates from the document. typed-client.test.ts writes
 * the generated types and then this file into one module (so `paths` below is the generated interface) and
 * type-checks it; on its own, as `.mts`, it stays out of the repository's type check and import rules. Each
 * `@ts-expect-error` is a call the document must refuse.
 */

type Method = "get" | "post" | "patch" | "delete";
/** The methods a path really has (openapi-typescript writes the others as `?: never`). */
type MethodOf<P extends keyof paths> = { [M in Method]: [paths[P][M]] extends [undefined] ? never : M }[Method];
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type Form<O> = O extends { requestBody: { content: { "multipart/form-data": infer B } } } ? B : never;
type Ok<O> = O extends { responses: { 200: { content: { "application/json": infer R } } } } ? R : never;
type Params<O> = O extends { parameters: infer P } ? P : never;

type Init<O> = { path?: Params<O> extends { path?: infer X } ? X : never } & {
  query?: Params<O> extends { query?: infer Q } ? Q : never;
  body?: Json<O>;
  form?: FormData;
};

const request = async <P extends keyof paths, M extends MethodOf<P>>(
  base: string,
  token: string,
  path: P,
  method: M,
  init: Init<Operation<P, M>> = {},
): Promise<Ok<Operation<P, M>>> => {
  const filled = String(path).replace(/\{(\w+)\}/g, (_, k: string) =>
    encodeURIComponent(String((init.path as Record<string, unknown> | undefined)?.[k])),
  );
  const query = new URLSearchParams(
    Object.entries((init.query ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );
  const res = await fetch(`${base}${filled}${query.size ? `?${query}` : ""}`, {
    method: method.toUpperCase(),
    headers: { Authorization: `Bearer ${token}`, ...(init.body ? { "Content-Type": "application/json" } : {}) },
    body: init.form ?? (init.body ? JSON.stringify(init.body) : undefined),
  });
  if (!res.ok) throw new Error(((await res.json()) as { detail: string }).detail);
  return (await res.json()) as Ok<Operation<P, M>>;
};

export const tour = async (base: string, token: string, file: Blob) => {
  // Ingest: the multipart form's fields are typed; the answer carries the build id.
  const fields: Form<Operation<"/sources/ingest-file", "post">> = { file: "notes.md", method: "fast" };
  // @ts-expect-error -- `vlm` is not a v2 method (contract §3)
  const refused: Form<Operation<"/sources/ingest-file", "post">> = { file: "notes.md", method: "vlm" };
  const form = new FormData();
  form.set("file", file, fields.file);
  form.set("method", fields.method ?? "auto");
  const ingested = await request(base, token, "/sources/ingest-file", "post", { form });
  const buildId: string = ingested.build_id;

  // Build status.
  const build = await request(base, token, "/sources/builds/{build_id}", "get", {
    path: { build_id: buildId },
    query: { suppress_elements: true },
  });
  const status: string = build.status;
  // @ts-expect-error -- the build status has no `answer`
  void build.answer;

  // Retrieval only.
  const rag = await request(base, token, "/sources/prebuilt-rag", "post", {
    body: { query: "granite", search_type: "hybrid" },
  });
  const scores: number[] = rag.chunks.map((c) => c.score);
  // @ts-expect-error -- `query` is required
  await request(base, token, "/sources/prebuilt-rag", "post", { body: { search_type: "hybrid" } });

  // Ask.
  const asked = await request(base, token, "/sources/ask-sources", "post", {
    body: { question: "How are granite blocks cut?", thinking_level: "fast" },
  });
  const answer: string = asked.answer;
  const cited = asked.citations?.map((c) => c.index) ?? [];

  // A flow run, in the path form and in the host form (where the flow name is in the host).
  const run = await request(base, token, "/flows/{flow_name}", "post", {
    path: { flow_name: "plain-rag" },
    body: { query: "granite", page_size: 5 },
  });
  const viaHost = await request("http://plain-rag.flows.localhost:3000", token, "/", "post", { body: { query: "x" } });
  const firstText: string | undefined = run.items[0]?.page_content;
  const generated: string | undefined = viaHost.answer;
  // @ts-expect-error -- the flow routes have no DELETE
  await request(base, token, "/flows/{flow_name}", "delete", { path: { flow_name: "plain-rag" } });

  return { refused, status, scores, answer, cited, firstText, generated };
};
