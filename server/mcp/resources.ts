import type { ReadResourceResult, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors";
import type { PublicApi } from "./public-api";

/**
 * Resources: each source as `quarry://sources/{file_id}/elements`, whose text is its parsed elements in order. Kept
 * small on purpose: the first ELEMENT_LIMIT elements, images left out, and a last line saying how many more there
 * are (get_elements pages through all of them). Listing shows at most SOURCE_LIMIT sources.
 */
export const ELEMENT_LIMIT = 100; // the largest page GET /sources/get-elements serves
const SOURCE_LIMIT = 500;
const URI = /^quarry:\/\/sources\/([^/]+)\/elements$/;

export const SOURCE_RESOURCE_TEMPLATE: ResourceTemplate = {
  uriTemplate: "quarry://sources/{file_id}/elements",
  name: "source-elements",
  title: "A source's parsed text",
  description: `The first ${ELEMENT_LIMIT} parsed elements of a source as text (use get_elements for the rest).`,
  mimeType: "text/plain",
};

export const sourceResources = async (api: PublicApi): Promise<Resource[]> => {
  const sources = await api.sources.list({});
  return sources
    .filter((s) => s.status === "Completed")
    .slice(0, SOURCE_LIMIT)
    .map((s) => ({
      uri: `quarry://sources/${s.file_id}/elements`,
      name: s.file_name,
      description: `Parsed text of ${s.file_name} (${s.file_type})`,
      mimeType: "text/plain",
    }));
};

export const readSourceResource = async (api: PublicApi, uri: string): Promise<ReadResourceResult> => {
  const fileId = URI.exec(uri)?.[1];
  if (!fileId) throw new AppError("NOT_FOUND", `Unknown resource: ${uri}`);
  const page = await api.sources.getElements({
    file_id: decodeURIComponent(fileId),
    page: 1,
    page_size: ELEMENT_LIMIT,
    suppress_img_base64: true,
  });
  const lines = page.items.map((e) => e.text).filter((t) => t.trim());
  const more = page.total - page.items.length;
  if (more > 0) lines.push(`[${more} more element(s): call get_elements with page 2 and page_size ${ELEMENT_LIMIT}]`);
  return { contents: [{ uri, mimeType: "text/plain", text: lines.join("\n\n") }] };
};
