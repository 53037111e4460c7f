import { requestReembedding } from "../chunk-sets/reembed";
import { db } from "../db";
import { CHAT_MODEL_IDS } from "../providers/chat/catalog";
import { AppError, errorMessage } from "../errors";
import { MODEL_ROLES, ROLE_LABELS, type ModelRole, type SetProjectModelsInput } from "./project-models.schema";
import { environmentDefault, projectModelsOf, resolvedRoles, servedForRole } from "./resolve";

/**
 * A project's default model per role: read by anyone in the project (the flow editor's pickers say what "Default"
 * means), set by admins. A default must be a model something serves now; the resolver still falls back when its
 * provider is later removed, so a removed provider never breaks a project.
 */

const COLUMNS: Record<ModelRole, string> = {
  chat: "defaultChatModel",
  embedding: "defaultEmbeddingModel",
  rerank: "defaultRerankModel",
  vision: "defaultVisionModel",
  speech: "defaultSpeechModel",
};

/** What each role may choose from: the model ids and which provider serves each (no address, no key). */
const servedByRole = async (teamId: string) => {
  const entries = await Promise.all(
    MODEL_ROLES.map(async (role) => {
      const served = await servedForRole(teamId, role);
      return [role, served.map((m) => ({ model: m.model, providerName: m.providerName }))] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<ModelRole, { model: string; providerName: string }[]>;
};

export const getProjectModels = async (projectId: string) => {
  const { teamId, defaults } = await projectModelsOf(projectId);
  return {
    teamId,
    defaults,
    /** What answers each role now. */
    resolved: await resolvedRoles(projectId),
    /** What would answer with the role unset: the install's default, else the local method. */
    fallback: MODEL_ROLES.map(environmentDefault),
    served: await servedByRole(teamId),
  };
};

const assertServed = async (teamId: string, role: ModelRole, model: string) => {
  const served = (await servedForRole(teamId, role)).map((m) => m.model);
  if (served.includes(model)) return;
  const valid = served.length ? served.join(", ") : "none (add a provider, or test it to list its models)";
  throw new AppError(
    "BAD_REQUEST",
    `No provider serves the ${ROLE_LABELS[role].toLowerCase()} model '${model}'. Served: ${valid}`,
  );
};

/**
 * A flow node's chat model must be one something serves, or one of the contract's named models (which stay valid
 * ids; when nothing serves one, the project's default answers and the run names that model). The 400 lists the
 * served models first.
 */
export const assertNodeModel = async (projectId: string, model: string) => {
  if (CHAT_MODEL_IDS.includes(model)) return;
  const { teamId } = await projectModelsOf(projectId);
  const served = (await servedForRole(teamId, "chat")).map((m) => m.model);
  if (served.includes(model)) return;
  const valid = [...new Set([...served, ...CHAT_MODEL_IDS])].join(", ");
  throw new AppError("BAD_REQUEST", `Invalid model '${model}'. Valid values: ${valid}`);
};

/** Sets the roles given (null: back to the install's default). A new embedding model starts re-embedding. */
export const setProjectModels = async (projectId: string, input: SetProjectModelsInput) => {
  const { teamId, defaults } = await projectModelsOf(projectId);
  const data: Record<string, string | null> = {};
  for (const role of MODEL_ROLES) {
    const model = input[role];
    if (model === undefined) continue;
    if (model !== null) await assertServed(teamId, role, model);
    data[COLUMNS[role]] = model;
  }
  await db.project.update({ where: { id: projectId }, data });
  if (input.embedding !== undefined && input.embedding !== defaults.embedding) {
    // Starting the job embeds a probe with the new model: a model that cannot embed is refused, and the project
    // keeps the embedder its vectors come from.
    await requestReembedding(projectId).catch(async (error: unknown) => {
      await db.project.update({ where: { id: projectId }, data: { defaultEmbeddingModel: defaults.embedding } });
      throw new AppError(
        "UNPROCESSABLE",
        `The embedding model ${input.embedding} could not be used: ${errorMessage(error)}`,
      );
    });
  }
  return getProjectModels(projectId);
};
