import type { Locator, Page } from "@playwright/test";
import { trpc } from "./dashboard";

/** The canvas node of a kind (its id starts with the kind). */
export const nodeOf = (page: Page, kind: string) => page.locator(`.react-flow__node[data-id^="${kind}-"]`);

/** Draws an edge from `from`'s output handle to `to`'s input handle with the mouse, as a user does. */
export const connect = async (page: Page, from: Locator, to: Locator) => {
  const a = (await from.locator(".react-flow__handle.source").boundingBox())!;
  const b = (await to.locator(".react-flow__handle.target").boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
};

export const DATASET_NODE = "dataset-1764000000001";
export const RETRIEVAL_NODE = "retrieval-1764000000002";
export const RESPONSE_NODE = "response-1764000000003";

type SearchFlow = {
  fileIds: string[];
  datasetName?: string;
  retrievalName?: string;
  searchType?: "keyword" | "hybrid";
  topK?: number;
};

const place = (x: number) => ({ position: { x, y: 100 }, style: { height: 80, width: 240 } });

/** A three-node graph: a dataset over `fileIds`, a retrieval, and a response answered by the default prompt. */
export const searchFlowGraph = ({
  fileIds,
  datasetName = "Documents",
  retrievalName = "Search",
  searchType = "hybrid",
  topK = 4,
}: SearchFlow) => ({
  nodes: [
    { id: DATASET_NODE, type: "dataset", ...place(0), data: { name: datasetName, config: { fileIds } } },
    {
      id: RETRIEVAL_NODE,
      type: "retrieval",
      ...place(300),
      data: { name: retrievalName, config: { searchType, topK, scoreThreshold: 0, retrievalQuery: null } },
    },
    {
      id: RESPONSE_NODE,
      type: "response",
      ...place(600),
      data: { name: "Answer", config: { model: "gpt-4o-mini", promptId: "default_retrieval_prompt", temperature: 0 } },
    },
  ],
  edges: [
    { source: DATASET_NODE, target: RETRIEVAL_NODE },
    { source: RETRIEVAL_NODE, target: RESPONSE_NODE },
  ],
});

/**
 * Creates a flow with `graph` as its draft through the API (setup only), and deploys it when given a description.
 */
export const createFlow = async (
  page: Page,
  ref: { projectId: string; name: string },
  graph: ReturnType<typeof searchFlowGraph>,
  deployDescription?: string,
) => {
  await trpc(page, "dashboard.flows.create", ref);
  await trpc(page, "dashboard.flows.saveDraft", { ...ref, graph, expectedVersion: 0 });
  if (deployDescription !== undefined)
    await trpc(page, "dashboard.flows.deploy", { ...ref, description: deployDescription });
};
