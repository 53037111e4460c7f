import graphRag from "@/examples/flows/graph-rag.json";
import plainRag from "@/examples/flows/plain-rag.json";
import raptorRag from "@/examples/flows/raptor-rag.json";
import rerankedRag from "@/examples/flows/reranked-rag.json";
import { AppError } from "../errors";
import { resolveDatasetFiles } from "./datasets";
import { FLOW_FILE_FORMAT, FlowFile } from "./flow-file";
import { exportFlow, listFlows, saveFlow } from "./service";

/**
 * Flows in and out as files (the `quarry-flow/1` format of ./flow-file.ts): import, export, duplicate, and the
 * shipped examples (examples/flows/) as templates. The CLI and the dashboard both come through here.
 */

const TEMPLATES = [plainRag, rerankedRag, graphRag, raptorRag].map((t) => FlowFile.parse(t));

/** The shipped example flows: name, description and the kinds of node each is built of. */
export const flowTemplates = () =>
  TEMPLATES.map((t) => ({
    name: t.name,
    description: t.description,
    kinds: [...new Set(t.nodes.map((n) => n.type))],
  }));

/** Dataset nodes that name files without ids (hand-written files) are resolved against the project's sources. */
const resolveDatasets = async (projectId: string, file: FlowFile) => {
  for (const node of file.nodes) {
    const config = node.data.config;
    if (node.type !== "dataset" || !Array.isArray(config.files) || !config.files.length) continue;
    if ((config.fileIds as unknown[] | undefined)?.length) continue;
    node.data.config = await resolveDatasetFiles(projectId, { ...config, fileIds: undefined });
  }
};

/** A flow file made a flow of the project (its draft), under `name` when given; `replace` overwrites a draft. */
export const importFlowFile = async (
  projectId: string,
  content: unknown,
  { name, replace = false }: { name?: string; replace?: boolean } = {},
) => {
  const parsed = FlowFile.safeParse({ ...(content as object), ...(name ? { name } : {}) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    throw new AppError("BAD_REQUEST", `Not a Quarry flow file: ${where}${issue.message}`);
  }
  const file = parsed.data;
  await resolveDatasets(projectId, file);
  const flow = await saveFlow({
    projectId,
    name: file.name,
    description: file.description,
    graph: { nodes: file.nodes, edges: file.edges },
    prompts: file.prompts,
    replace,
  });
  return { name: flow.name };
};

/** The flow's draft as a flow file (an import of it gives the same flow back). */
export const exportFlowFile = async (projectId: string, name: string) => ({
  format: FLOW_FILE_FORMAT,
  ...(await exportFlow(projectId, name)),
});

/** The first free name of the form `<base>`, `<base>-2`, `<base>-3` … among the project's flows. */
const freeName = async (projectId: string, base: string) => {
  const taken = new Set((await listFlows(projectId)).map((f) => f.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 59)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
};

/** A copy of a flow's draft under a new name (`<name>-copy`, numbered when taken); deploys are not copied. */
export const duplicateFlow = async (projectId: string, name: string) =>
  importFlowFile(projectId, await exportFlowFile(projectId, name), {
    name: await freeName(projectId, `${name.slice(0, 58)}-copy`),
  });

/** A new flow from a shipped template, named after it (numbered when taken). */
export const createFromTemplate = async (projectId: string, template: string) => {
  const file = TEMPLATES.find((t) => t.name === template);
  if (!file) throw new AppError("NOT_FOUND", `No template named '${template}'`);
  return importFlowFile(projectId, structuredClone(file), { name: await freeName(projectId, file.name) });
};
