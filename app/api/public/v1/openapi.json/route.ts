import { notAllowed } from "@/server/public-api/public-route";
import { openApiDocument } from "@/server/public-api/openapi";

export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 description of this API, generated from its schemas. Public: it holds no project's data. */
export const GET = () => Response.json(openApiDocument());
export const { POST, PUT, PATCH, DELETE } = notAllowed;
