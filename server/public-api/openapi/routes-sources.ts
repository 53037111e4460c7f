import { z } from "zod";
import { AskSourcesInput, RunExtractionInput } from "../v1/answers/requests.schema";
import { AskResponse, RunExtractionResponse } from "../v1/answers/responses.schema";
import { IngestGithubInput, IngestUrlInput, IngestYoutubeInput } from "../v1/connectors/requests.schema";
import { ScreenshotInput } from "../v1/legacy/requests.schema";
import { ScreenshotResponse } from "../v1/legacy/responses.schema";
import {
  DeleteSourceInput,
  GetBuildInput,
  GetElementsInput,
  IndexBuildInput,
  IngestFileFields,
  ListSourcesInput,
  PrebuiltRagInput,
  ReprocessInput,
} from "../v1/sources/requests.schema";
import {
  ConfigResponse,
  DeleteSourceResponse,
  GetBuildResponse,
  GetElementsResponse,
  IngestResponse,
  ListSourcesResponse,
  PrebuiltRagResponse,
} from "../v1/sources/responses.schema";
import { EXAMPLE_FILE_NAME, EXAMPLE_IDS } from "./examples";
import type { RouteSpec } from "./route-spec";

/** The current sources endpoints (contract §5), in the order a client meets them. */

const ingest = (what: string, contract: string, json: z.ZodType, errors: RouteSpec["errors"]): Partial<RouteSpec> => ({
  method: "post",
  tag: "Sources",
  permission: "write",
  description: `${what} (contract ${contract}). Answers at once with the build id; poll GET /sources/builds/{build_id}.`,
  body: { json },
  response: IngestResponse,
  errors,
});

export const SOURCES_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/sources/config",
    operationId: "getConfig",
    summary: "Ingest options, limits and the retrieval configuration",
    tag: "Sources",
    permission: "read",
    response: ConfigResponse,
    example: { status: 200 },
  },
  {
    method: "post",
    path: "/sources/ingest-file",
    operationId: "ingestFile",
    summary: "Upload a file and build it",
    description:
      "Multipart upload (contract §5.2), at most 100 MB, with a Content-Length header. Answers at once with the " +
      "build id; poll GET /sources/builds/{build_id}.",
    tag: "Sources",
    permission: "write",
    body: { multipart: IngestFileFields },
    response: IngestResponse,
    errors: {
      400: "Unsupported file type: .exe",
      411: "Content-Length header is required",
      413: "File exceeds the maximum size of 100 MB",
    },
    example: { body: { method: "fast", enrichment: "none" }, status: 200 },
  },
  {
    method: "get",
    path: "/sources/builds/{build_id}",
    operationId: "getBuild",
    summary: "Build status, with the elements once it has completed",
    description:
      "Contract §5.1. A well-formed id that no build of the token's project has answers 200 with status " +
      "`not_found`; poll every 2–5 s while the status is Pending or Processing.",
    tag: "Sources",
    permission: "read",
    pathParams: { build_id: "The build id an ingest answered with." },
    query: GetBuildInput,
    response: GetBuildResponse,
    errors: { 400: "page_size must be between 1 and 100", 404: "Build not found" },
    example: { params: { build_id: EXAMPLE_IDS.buildId }, query: { suppress_elements: "true" }, status: 200 },
  },
  {
    method: "get",
    path: "/sources",
    operationId: "listSources",
    summary: "List the project's sources",
    description: "Contract §5.9; also served at `/sources/` (the legacy `GET /`).",
    tag: "Sources",
    permission: "read",
    query: ListSourcesInput,
    response: ListSourcesResponse,
    example: { status: 200 },
  },
  {
    method: "get",
    path: "/sources/get-elements",
    operationId: "getElements",
    summary: "A source's elements, filtered and paged",
    description: "Contract §5.10: pagination only when both `page` and `page_size` are given.",
    tag: "Sources",
    permission: "read",
    query: GetElementsInput,
    response: GetElementsResponse,
    errors: { 400: "Invalid input: file_id is required", 404: "Source not found" },
    example: { query: { file_id: EXAMPLE_IDS.fileId, page: "1", page_size: "5" }, status: 200 },
  },
  {
    method: "get",
    path: "/sources/{file_id}/pages/{page_number}/screenshot",
    operationId: "getPageScreenshot",
    summary: "A PNG of one page of a source",
    description: "Contract §5.11: `max_width` is clamped to 300–1600 (default 900).",
    tag: "Sources",
    permission: "read",
    pathParams: { file_id: "The source's file_id.", page_number: "1-based page number (1 for an image)." },
    query: ScreenshotInput,
    response: ScreenshotResponse,
    responseHeaders: { "Cache-Control": "public, max-age=3600" },
    errors: { 400: "page_number must be an integer", 404: "Source not found" },
  },
  {
    ...ingest("A web page, a crawl from it, or a file URL", "§5.3", IngestUrlInput, { 400: "Invalid URL" }),
    path: "/sources/ingest-url",
    operationId: "ingestUrl",
    summary: "Ingest a URL",
  } as RouteSpec,
  {
    ...ingest("A public GitHub repository", "§5.4", IngestGithubInput, { 400: "Invalid GitHub repository URL" }),
    path: "/sources/ingest-github",
    operationId: "ingestGithub",
    summary: "Ingest a GitHub repository",
  } as RouteSpec,
  {
    ...ingest("The captions of a YouTube video", "§5.5", IngestYoutubeInput, { 400: "Invalid YouTube URL" }),
    path: "/sources/ingest-youtube",
    operationId: "ingestYoutube",
    summary: "Ingest a YouTube video",
  } as RouteSpec,
  {
    ...ingest("Build a source again, keeping its file_id", "§5.6", ReprocessInput, {
      400: "Invalid input: file_id is required",
      404: "Source node not found",
      409: "A build is already running for this source",
    }),
    path: "/sources/reprocess",
    operationId: "reprocess",
    summary: "Re-process a source",
  } as RouteSpec,
  {
    ...ingest("Index a build ingested with indexing=none", "§5.7", IndexBuildInput, {
      400: "Invalid input: build_id or file_id is required",
      404: "Build not found",
      409: "Build is already indexed",
    }),
    path: "/sources/index",
    operationId: "indexBuild",
    summary: "Index a build",
  } as RouteSpec,
  {
    method: "post",
    path: "/sources/prebuilt-rag",
    operationId: "prebuiltRag",
    summary: "Retrieve the chunks that best match a query",
    description: "Contract §5.15: at most 10 chunks, best first.",
    tag: "Answers",
    permission: "write",
    body: { json: PrebuiltRagInput },
    response: PrebuiltRagResponse,
    errors: { 400: "Invalid input: query is required", 404: "Source not found" },
    example: { body: { query: "How are granite blocks cut?", search_type: "hybrid" }, status: 200 },
  },
  {
    method: "post",
    path: "/sources/ask-sources",
    operationId: "askSources",
    summary: "Ask a question over the project's sources",
    description: 'Contract §5.13: an answer with `[N]` citations; `"stream": true` answers as server-sent events.',
    tag: "Answers",
    permission: "write",
    body: { json: AskSourcesInput },
    response: AskResponse,
    streams: true,
    errors: { 400: "Invalid input: question is required", 404: "Source not found" },
    example: { body: { question: "How are granite blocks cut?", thinking_level: "fast" }, status: 200 },
  },
  {
    method: "post",
    path: "/sources/run-extraction",
    operationId: "runExtraction",
    summary: "Extract structured data from sources against a JSON Schema",
    description: "Contract §5.14.",
    tag: "Answers",
    permission: "write",
    body: { json: RunExtractionInput },
    response: RunExtractionResponse,
    errors: { 400: "Invalid input: user_instruction is required", 404: "Source not found" },
    example: {
      body: {
        file_ids: [EXAMPLE_IDS.fileId],
        user_instruction: "Which rock is quarried?",
        output_schema: { type: "object", properties: { rock: { type: "string" } }, required: ["rock"] },
      },
      status: 200,
    },
  },
  {
    method: "delete",
    path: "/sources/delete",
    operationId: "deleteSource",
    summary: "Delete a source",
    description: `Contract §5.12 (\`POST\` is accepted as an alias). Example: \`{"file_name": "${EXAMPLE_FILE_NAME}"}\`.`,
    tag: "Sources",
    permission: "delete",
    body: { json: DeleteSourceInput },
    response: DeleteSourceResponse,
    errors: { 400: "Invalid input: file_id is required", 404: "Source not found" },
  },
];
