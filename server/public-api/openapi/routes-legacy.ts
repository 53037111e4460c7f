import { LegacyConnectorInput, LegacyUploadUrlInput } from "../v1/connectors/requests.schema";
import { LegacyElementsInput, LegacyProcessInput, LegacyUploadFields } from "../v1/legacy/requests.schema";
import { LegacyElementsResponse } from "../v1/legacy/responses.schema";
import { DeleteSourceInput } from "../v1/sources/requests.schema";
import { DeleteSourceResponse, SourceResponse } from "../v1/sources/responses.schema";
import type { RouteSpec } from "./route-spec";

/**
 * The earlier sources endpoints (contract §6), kept for old clients and marked deprecated: each has a current
 * counterpart. The synchronous ones answer once the build has finished, or 504 after 10 minutes.
 */

const TIMED_OUT = "Processing timed out; poll GET /";

const legacy = (spec: Omit<RouteSpec, "tag" | "deprecated" | "method"> & Partial<RouteSpec>): RouteSpec => ({
  method: "post",
  tag: "Legacy",
  deprecated: true,
  ...spec,
});

export const LEGACY_ROUTES: RouteSpec[] = [
  legacy({
    path: "/sources/upload",
    operationId: "legacyUpload",
    procedure: "legacy.upload",
    summary: "Upload a file and wait for its build (use ingest-file)",
    permission: "write",
    body: { multipart: LegacyUploadFields },
    response: SourceResponse,
    errors: { 400: "Unsupported file type: .exe", 411: "Content-Length header is required", 504: TIMED_OUT },
  }),
  legacy({
    path: "/sources/upload-url-source",
    operationId: "legacyUploadUrlSource",
    procedure: "connectors.uploadUrl",
    summary: "Schedule a URL source and answer with it (use ingest-url)",
    permission: "write",
    body: { json: LegacyUploadUrlInput },
    response: SourceResponse,
    errors: { 400: "Invalid URL" },
  }),
  legacy({
    path: "/sources/upload-github-source",
    operationId: "legacyUploadGithubSource",
    procedure: "connectors.uploadGithub",
    summary: "Ingest a GitHub repository and wait for it (use ingest-github)",
    permission: "write",
    body: { json: LegacyConnectorInput },
    response: SourceResponse,
    errors: { 400: "Invalid GitHub repository URL", 504: TIMED_OUT },
  }),
  legacy({
    path: "/sources/upload-youtube-source",
    operationId: "legacyUploadYoutubeSource",
    procedure: "connectors.uploadYoutube",
    summary: "Ingest a YouTube video and wait for it (use ingest-youtube)",
    permission: "write",
    body: { json: LegacyConnectorInput },
    response: SourceResponse,
    errors: { 400: "Invalid YouTube URL", 504: TIMED_OUT },
  }),
  legacy({
    path: "/sources/process",
    operationId: "legacyProcess",
    procedure: "legacy.process",
    summary: "Re-process a source and wait for it (use reprocess)",
    permission: "write",
    body: { json: LegacyProcessInput },
    response: SourceResponse,
    errors: { 400: "Invalid input: file_id or file_name is required", 404: "Source node not found", 504: TIMED_OUT },
  }),
  legacy({
    path: "/sources/elements",
    operationId: "legacyElements",
    procedure: "legacy.elements",
    summary: "A source's elements as LangChain-style documents (use get-elements)",
    permission: "write",
    body: { json: LegacyElementsInput },
    response: LegacyElementsResponse,
    errors: { 400: "Invalid input: file_id or file_name is required", 404: "Source not found" },
  }),
  legacy({
    path: "/sources/delete",
    operationId: "legacyDeleteSourcePost",
    procedure: "sources.delete",
    summary: "Delete a source with POST (use DELETE /sources/delete)",
    permission: "delete",
    body: { json: DeleteSourceInput },
    response: DeleteSourceResponse,
    errors: { 400: "Invalid input: file_id is required", 404: "Source not found" },
  }),
];
