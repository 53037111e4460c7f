import { z } from "zod";
import { FlowName, Graph } from "./graph.schema";

/**
 * Inputs of the dashboard's flow editor procedures. Isomorphic (zod only): the editor's forms check the same rules
 * before anything is sent.
 */

export const FlowRef = z.object({ projectId: z.uuid(), name: FlowName });

export const CreateFlowInput = z.object({
  projectId: z.uuid(),
  name: FlowName,
  description: z.string().trim().max(500).optional(),
});

/**
 * A save of the whole draft. `expectedVersion` is the draftVersion the editor loaded or last saved: when the stored
 * draft has moved on since (another tab, another user, a PATCH through the API), the save is refused with 409.
 */
export const SaveDraftInput = FlowRef.extend({
  graph: Graph,
  expectedVersion: z.number().int().min(0),
});

export const CheckDraftInput = FlowRef.extend({ graph: Graph });

export const RevisionRef = FlowRef.extend({ revisionId: z.uuid() });

export const RestoreRevisionInput = RevisionRef.extend({ expectedVersion: z.number().int().min(0) });

export const DeployInput = FlowRef.extend({ description: z.string().trim().max(1000).optional() });

/** A run from the editor: the draft (a simulation) or the deployed revision, streamed. */
export const EditorRunInput = FlowRef.extend({
  query: z.string().trim().min(1, { error: "Enter a question" }).max(10_000),
  target: z.enum(["draft", "deployed"]).default("draft"),
});
export type EditorRunInput = z.infer<typeof EditorRunInput>;

/** The message of the 409 a stale save gets; the editor recognises it and offers to reload. */
export const DRAFT_CONFLICT =
  "Someone else changed this draft since you loaded it. Reload to see their version; your unsaved edits will be lost.";

/** A flow file (./flow-file.ts) sent from the browser, checked by the import itself; optionally under another name. */
export const ImportFlowInput = z.object({
  projectId: z.uuid(),
  file: z.unknown(),
  name: FlowName.optional(),
});

export const TemplateInput = z.object({ projectId: z.uuid(), template: z.string().min(1).max(100) });
