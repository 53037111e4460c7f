import { z } from "zod";
import type { Permission } from "../generated/prisma/enums";
import { uploadRequest } from "../public-api/multipart";
import type { PublicApi } from "./public-api";

/**
 * The twelve sources tools of the original product's MCP server, with its tool names and argument names and types,
 * so an agent configured for that server works against Quarry's endpoint. Each one calls the tRPC procedure behind
 * the matching public REST route, so validation, permissions, tenant scoping and answers are the REST ones; the
 * permission listed here only decides which tools a token is shown (the procedure checks it again).
 */
export type SourceTool = {
  name: string;
  description: string;
  /** The permission of the REST operation the tool calls (its `apiProcedure` rung). */
  permission: Permission;
  args: z.ZodObject;
  call: (api: PublicApi, args: Record<string, unknown>) => Promise<unknown>;
};

// The original server's method list (Quarry also accepts "auto", and refuses "vlm" with the REST route's 400).
const method = z
  .enum(["fast", "balanced", "accurate", "vlm", "agentic"])
  .optional()
  .describe("The partitioning method; the project's default when omitted.");
const thinkingLevel = z
  .enum(["fast", "balanced", "accurate"])
  .optional()
  .describe("How much model effort to spend: fast, balanced or accurate.");
const ids = (what: string) => z.array(z.string()).optional().describe(what);
const jsonSchema = (what: string) => z.looseObject({}).describe(what);
const buildNote = " Answers with a build_id at once; poll get_build_status until the build has finished.";

const tool = <T extends z.ZodRawShape>(
  def: Omit<SourceTool, "args" | "call"> & {
    args: T;
    call: (api: PublicApi, args: z.infer<z.ZodObject<T>>) => Promise<unknown>;
  },
): SourceTool => ({ ...def, args: z.object(def.args), call: def.call as SourceTool["call"] });

/**
 * An upload from text: the same multipart path as POST /sources/ingest-file, built in memory with the
 * Content-Length that path requires (its size check reads it before the body).
 */
const textUpload = async (fileName: string, content: string, fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file", new Blob([content]), fileName);
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  const headers = { "content-type": encoded.headers.get("content-type")!, "content-length": String(body.length) };
  return uploadRequest(new Request("http://mcp.local/ingest-file", { method: "POST", body, headers }));
};

const ingestTools: SourceTool[] = [
  tool({
    name: "ingest_file",
    description:
      "Add a text document (markdown, txt, csv, html …) as a source: give its content in file_content and its name " +
      "with extension in file_name. A path on the client's disk (file_path) cannot be read by a remote server: " +
      "upload binary files through POST /api/public/v1/sources/ingest-file instead." +
      buildNote,
    permission: "write",
    args: {
      file_path: z.string().optional().describe("Not readable by this remote server; use file_content."),
      file_content: z.string().optional().describe("The text of the file."),
      file_name: z.string().optional().describe('The file name with its extension, e.g. "notes.md".'),
      method,
    },
    call: async (api, { file_path, file_content, file_name, method: m }) => {
      if (file_content === undefined || !file_name) {
        throw new ToolInputError(
          file_path
            ? `Quarry's MCP server cannot read ${file_path} on your machine: send file_content and file_name`
            : "Send file_content and file_name",
        );
      }
      return api.sources.ingestFile({ upload: await textUpload(file_name, file_content, m ? { method: m } : {}) });
    },
  }),
  tool({
    name: "ingest_url",
    description:
      "Add a web page as a source, or with crawlUrls the pages it links to as well; a URL of a document file is " +
      "downloaded and parsed." +
      buildNote,
    permission: "write",
    args: {
      url: z.string().describe("The page's URL."),
      crawlUrls: z.boolean().optional().describe("Also follow the page's links within its site."),
      method,
    },
    call: (api, args) => api.connectors.ingestUrl(args),
  }),
  tool({
    name: "ingest_github",
    description: "Add a public GitHub repository (its text files) as a source." + buildNote,
    permission: "write",
    args: { url: z.string().describe("The repository's URL, e.g. https://github.com/owner/repo.") },
    call: (api, args) => api.connectors.ingestGithub(args),
  }),
  tool({
    name: "ingest_youtube",
    description: "Add a public YouTube video (its captions) as a source." + buildNote,
    permission: "write",
    args: { url: z.string().describe("The video's URL.") },
    call: (api, args) => api.connectors.ingestYoutube(args),
  }),
  tool({
    name: "reprocess",
    description: "Build an existing source again, for instance with another partitioning method." + buildNote,
    permission: "write",
    args: { file_id: z.string().describe("The source's file_id."), method },
    call: (api, args) => api.sources.reprocess(args),
  }),
];

const readTools: SourceTool[] = [
  tool({
    name: "list_sources",
    description:
      "List the project's sources with their file_id, name, size, type, origin and status; file_ids narrows the list.",
    permission: "read",
    args: { file_ids: ids("Only these sources.") },
    call: (api, args) => api.sources.list(args),
  }),
  tool({
    name: "get_build_status",
    description:
      "The state of a build started by an ingest tool or reprocess: status (Processing, Completed, Processing " +
      "failed …), success, file_id and file_name, and when finished the parsed elements page by page.",
    permission: "read",
    args: {
      build_id: z.string().describe("The build_id an ingest tool or reprocess answered with."),
      suppress_elements: z.boolean().optional().describe("Leave the elements out (faster)."),
      suppress_img_base64: z.boolean().optional().describe("Leave the elements' images out."),
      page: z.number().optional().describe("Page of elements, from 1."),
      page_size: z.number().optional().describe("Elements per page (at most 100)."),
    },
    call: (api, args) => api.sources.getBuild(args),
  }),
  tool({
    name: "get_elements",
    description:
      "The parsed elements of a source (type, text, page number, position …), page by page, optionally filtered.",
    permission: "read",
    args: {
      file_id: z.string().describe("The source's file_id."),
      page: z.number().optional().describe("Page of elements, from 1."),
      page_size: z.number().optional().describe("Elements per page (at most 100)."),
      suppress_img_base64: z.boolean().optional().describe("Leave the elements' images out."),
      type: z.string().optional().describe("Only elements of this type (Title, NarrativeText, Table …)."),
      page_numbers: z.array(z.number()).optional().describe("Only elements on these pages of the document."),
      elementsToRemove: z.array(z.string()).optional().describe("Leave elements of these types out."),
    },
    call: (api, args) => api.sources.getElements(args),
  }),
];

const answerTools: SourceTool[] = [
  tool({
    name: "delete_source",
    description: "Delete a source and everything built from it. This cannot be undone.",
    permission: "delete",
    args: { file_id: z.string().describe("The source's file_id.") },
    call: (api, args) => api.sources.delete(args),
  }),
  tool({
    name: "ask",
    description:
      "Answer a question from the project's sources, with [N] citations; conversation_id keeps the thread, " +
      "output_schema asks for a structured answer.",
    permission: "write",
    args: {
      question: z.string().describe("The question."),
      conversation_id: z.string().optional().describe("Continue this conversation."),
      reset: z.boolean().optional().describe("Start the conversation afresh."),
      file_ids: ids("Answer only from these sources."),
      file_names: ids("Answer only from the sources with these names."),
      output_schema: jsonSchema("A JSON Schema the answer must follow (structured_output).").optional(),
      thinking_level: thinkingLevel,
    },
    call: (api, args) => api.answers.askSources(args),
  }),
  tool({
    name: "extract",
    description: "Extract structured data from sources: an instruction and a JSON Schema of the result.",
    permission: "write",
    args: {
      user_instruction: z.string().describe("What to extract."),
      output_schema: jsonSchema("The JSON Schema of the result."),
      file_ids: ids("Extract from these sources."),
      file_names: ids("Extract from the sources with these names."),
      thinking_level: thinkingLevel,
    },
    call: (api, args) => api.answers.runExtraction(args),
  }),
  tool({
    name: "retrieve_chunks",
    description:
      "Search the project's sources and return the best matching chunks with their file, page and score; no " +
      "answer is written (use ask for that).",
    permission: "write",
    args: {
      query: z.string().describe("What to search for."),
      file_ids: ids("Search only these sources."),
      file_names: ids("Search only the sources with these names."),
    },
    call: (api, args) => api.sources.prebuiltRag(args),
  }),
];

export const SOURCE_TOOLS: SourceTool[] = [...answerTools, ...ingestTools, ...readTools];

/** A tool's arguments that cannot be sent on to the procedure; its message is the tool's error text. */
export class ToolInputError extends Error {}
