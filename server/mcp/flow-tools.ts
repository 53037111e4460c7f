import { z } from "zod";
import type { DeployedFlow } from "../flows/deployed";
import type { PublicApi } from "./public-api";

/**
 * Each deployed flow of the project as a tool named after the flow. Flow names are DNS labels (a-z, 0-9, "-"), so
 * they are valid tool names; one that equals a sources tool's name ("ask", "extract", "reprocess") is listed as
 * `<name>-flow` instead, since the sources tools must keep the original server's names.
 */

export const FlowToolArgs = z.object({
  query: z.string().describe("The question or search text the flow runs on."),
  page_size: z.number().int().min(1).max(100).optional().describe("How many retrieved items to return (10)."),
});

export const flowToolName = (flowName: string, taken: ReadonlySet<string>) =>
  taken.has(flowName) ? `${flowName}-flow` : flowName;

/** The revision's tool description, or one written from the flow's description and its steps. */
export const flowToolDescription = (flow: DeployedFlow): string => {
  if (flow.toolDescription) return flow.toolDescription;
  const about = flow.description?.trim() ? `${flow.description.trim()} ` : "";
  const steps = flow.steps.length ? ` It runs ${flow.steps.join(" → ")}.` : "";
  return `${about}Quarry flow "${flow.name}": send a query, get the flow's answer with citations, or the items it retrieved.${steps}`;
};

type RunItem = { page_content: string; metadata: { source: string; page: number | null; relevance_score: number } };
type Citation = { index: number; file_name: string | null; page_number: number | null; text_preview: string | null };
type RunResult = { items: RunItem[]; total: number; answer?: string; citations?: Citation[] };

const citationLine = (c: Citation) =>
  `[${c.index}] ${c.file_name ?? "unknown source"}${c.page_number === null ? "" : `, page ${c.page_number}`}` +
  (c.text_preview ? `: ${c.text_preview}` : "");

const itemLine = (item: RunItem, i: number) =>
  `${i + 1}. ${item.metadata.source}${item.metadata.page === null ? "" : `, page ${item.metadata.page}`} ` +
  `(score ${item.metadata.relevance_score.toFixed(3)})\n${item.page_content}`;

/** The answer and its citations when the flow writes one; otherwise the retrieved items. */
export const flowResultText = (result: RunResult): string => {
  if (result.answer !== undefined) {
    const citations = result.citations?.length
      ? `\n\nCitations:\n${result.citations.map(citationLine).join("\n")}`
      : "";
    return `${result.answer}${citations}`;
  }
  if (!result.items.length) return "The flow found nothing for this query.";
  return `${result.total} item(s); the first ${result.items.length}:\n\n${result.items.map(itemLine).join("\n\n")}`;
};

/** Runs the deployed flow as POST /flows/{name} does, and answers as text plus the run's JSON as structured content. */
export const callFlowTool = async (api: PublicApi, flowName: string, args: z.infer<typeof FlowToolArgs>) => {
  const result = (await api.flows.run({
    flowName,
    body: { query: args.query, ...(args.page_size === undefined ? {} : { page_size: args.page_size }) },
  })) as RunResult;
  return {
    content: [{ type: "text" as const, text: flowResultText(result) }],
    structuredContent: result as unknown as Record<string, unknown>,
  };
};
