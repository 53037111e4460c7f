import { buildOpenApiDocument, type OpenApiDocument } from "./document";

export { buildOpenApiDocument, type OpenApiDocument } from "./document";

let built: OpenApiDocument | null = null;

/** Built once per process: the schemas it comes from do not change while the app runs. */
export const openApiDocument = (): OpenApiDocument => (built ??= buildOpenApiDocument());
