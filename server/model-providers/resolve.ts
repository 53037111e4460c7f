import type { ProjectDefaults } from "../auth/api-tokens";
import { db } from "../db";
import { AppError } from "../errors";
import {
  CHAT_SETTING_HINT,
  endpointChatModel,
  environmentChatModel,
  environmentChatTarget,
  getChatModel,
  getChatTarget,
  type ChatModel,
  type ChatTarget,
} from "../providers/chat";
import { getEmbedder, LOCAL_EMBEDDING_MODEL, type Embedder } from "../providers/embedding";
import { createOpenAIEmbedder } from "../providers/embedding/openai-embedder";
import { getReranker, type Reranker } from "../providers/rerank";
import { createHttpReranker } from "../providers/rerank/http-reranker";
import { createSpeechModel, getSpeechModel, type SpeechModel } from "../providers/speech";
import { createVisionModel, getVisionModel, type VisionModel } from "../providers/vision";
import { environmentProviders } from "./env-providers";
import { openKey } from "./key-crypto";
import {
  LOCAL_ANSWERER,
  MODEL_ROLES,
  providersPagePath,
  ROLE_KINDS,
  type ModelRole,
  type ProjectModels,
  type ResolvedRole,
} from "./project-models.schema";
import { servedModels } from "./served-models";
import type { ServedModel } from "./types";

/**
 * Which server answers a call, in one place. A model id goes to the first of the team's providers that lists it
 * (their address, their decrypted key, their name on the usage record); else to the environment's provider that
 * serves it (the install-wide defaults of `.env`). A call that names no model, or one nothing serves, takes the
 * project's default for the role, then the environment's, then Quarry's local method: what answers is always
 * something that serves the model it is called by.
 */

/** A dashboard provider's address for one model, with its key opened for this call only. */
type TeamEndpoint = { model: string; providerName: string; baseUrl: string; apiKey?: string; native: boolean };

const NO_DEFAULTS: ProjectModels = { chat: null, embedding: null, rerank: null, vision: null, speech: null };

/**
 * The project's team and default models; for an id that names no project (a search scoped to nothing, say), none:
 * the environment's models answer, as they did before projects had defaults.
 */
const projectDefaults = async (projectId: string): Promise<{ teamId: string | null; defaults: ProjectModels }> => {
  const row = await db.project.findUnique({
    where: { id: projectId },
    select: {
      teamId: true,
      defaultChatModel: true,
      defaultEmbeddingModel: true,
      defaultRerankModel: true,
      defaultVisionModel: true,
      defaultSpeechModel: true,
    },
  });
  if (!row) return { teamId: null, defaults: NO_DEFAULTS };
  return {
    teamId: row.teamId,
    defaults: {
      chat: row.defaultChatModel,
      embedding: row.defaultEmbeddingModel,
      rerank: row.defaultRerankModel,
      vision: row.defaultVisionModel,
      speech: row.defaultSpeechModel,
    },
  };
};

/** The same for a project that must exist (the settings page's procedures). */
export const projectModelsOf = async (projectId: string): Promise<{ teamId: string; defaults: ProjectModels }> => {
  const { teamId, defaults } = await projectDefaults(projectId);
  if (!teamId) throw new AppError("NOT_FOUND", "Project not found");
  return { teamId, defaults };
};

/** Whether a served model can fill the role: a team provider by its kind; the environment by the setting it is. */
const fillsRole = (served: ServedModel, role: ModelRole) =>
  served.source === "team"
    ? ROLE_KINDS[role].includes(served.kind)
    : role === "chat"
      ? ["env:chat", "env:openai", "env:groq"].includes(served.providerId)
      : served.providerId === `env:${role}`;

/** The models a role can use in a team: its own providers' first, then the environment's; each model once. */
export const servedForRole = async (teamId: string, role: ModelRole): Promise<ServedModel[]> => {
  const seen = new Set<string>();
  return (await servedModels(teamId)).filter((m) => {
    if (!fillsRole(m, role) || seen.has(m.model)) return false;
    seen.add(m.model);
    return true;
  });
};

const teamEndpoint = async (teamId: string, role: ModelRole, model: string): Promise<TeamEndpoint | null> => {
  const row = await db.modelProvider.findFirst({
    where: { teamId, kind: { in: [...ROLE_KINDS[role]] }, servedModels: { has: model } },
    orderBy: { createdAt: "asc" },
    omit: { encryptedKey: false },
  });
  if (!row) return null;
  // An unreadable key (the server secret changed) fails the call with the page's explanation, never silently.
  const apiKey = row.encryptedKey ? await openKey(row.encryptedKey, teamId) : undefined;
  return { model, providerName: row.name, baseUrl: row.baseUrl, apiKey, native: row.kind === "openai" };
};

/** The model ids to try for a role, in order: the one asked for, then the project's default. */
const candidates = (asked: string | null | undefined, fallback: string | null) =>
  [asked, fallback].filter((m): m is string => Boolean(m));

/**
 * The chat model that answers `modelId` in a project (a flow node's model, or none), or null when no chat model is
 * served at all and the caller uses its local method.
 */
export const resolveChatModel = async (
  projectId: string | null | undefined,
  modelId?: string | null,
): Promise<ChatModel | null> => {
  if (!projectId) return getChatModel(modelId);
  const { teamId, defaults } = await projectDefaults(projectId);
  for (const model of candidates(modelId, defaults.chat)) {
    const team = teamId ? await teamEndpoint(teamId, "chat", model) : null;
    if (team) return endpointChatModel(team);
    const fromEnvironment = environmentChatModel(model);
    if (fromEnvironment) return fromEnvironment;
  }
  return getChatModel();
};

/**
 * The project's chat model as plain data, for build-time calls (enrichment): its default chat model at the team
 * provider that serves it (with that provider's key, and its name for the usage record), else where the environment
 * serves it, else the environment's configured model; null when none is, and enrichment runs locally.
 */
export const resolveChatTarget = async (projectId: string): Promise<ChatTarget | null> => {
  const { teamId, defaults } = await projectDefaults(projectId);
  if (defaults.chat) {
    const team = teamId ? await teamEndpoint(teamId, "chat", defaults.chat) : null;
    if (team) return { baseUrl: team.baseUrl, apiKey: team.apiKey, model: team.model, provider: team.providerName };
    const fromEnvironment = environmentChatTarget(defaults.chat);
    if (fromEnvironment) return fromEnvironment;
  }
  return getChatTarget();
};

const embedders = new Map<string, Embedder>();

/**
 * The embedder of a project: its default embedding model where a team provider serves it, else the environment's.
 * `known`: the project's row as the request already read it (a token check reads it with the token), not read again.
 */
export const resolveEmbedder = async (projectId: string, known?: ProjectDefaults): Promise<Embedder> => {
  const { teamId, defaults } = known ?? (await projectDefaults(projectId));
  const team = teamId && defaults.embedding ? await teamEndpoint(teamId, "embedding", defaults.embedding) : null;
  if (!team) return getEmbedder();
  const key = JSON.stringify(team);
  let embedder = embedders.get(key);
  if (!embedder) {
    if (embedders.size > 32) embedders.clear();
    embedder = createOpenAIEmbedder({ ...team, providerName: team.providerName });
    embedders.set(key, embedder);
  }
  return embedder;
};

/** The reranker of a project: its default rerank model where a team provider serves it, else the environment's. */
export const resolveReranker = async (projectId: string, known?: ProjectDefaults): Promise<Reranker> => {
  const { teamId, defaults } = known ?? (await projectDefaults(projectId));
  const team = teamId && defaults.rerank ? await teamEndpoint(teamId, "rerank", defaults.rerank) : null;
  return team ? createHttpReranker(team) : getReranker();
};

/** The team provider serving the project's default model for a role, or null (no default, or nothing serves it). */
const defaultEndpoint = async (projectId: string, role: ModelRole): Promise<TeamEndpoint | null> => {
  const { teamId, defaults } = await projectDefaults(projectId);
  const model = defaults[role];
  return teamId && model ? teamEndpoint(teamId, role, model) : null;
};

/**
 * The vision model that reads a project's pages (`agentic`, and `auto` for scans): its default vision model where a
 * team provider serves it (its calls recorded under the provider's name), else the environment's, else none.
 */
export const resolveVisionModel = async (projectId: string): Promise<VisionModel | null> => {
  const team = await defaultEndpoint(projectId, "vision");
  if (!team) return getVisionModel();
  return createVisionModel({
    baseUrl: team.baseUrl,
    apiKey: team.apiKey,
    model: team.model,
    provider: team.providerName,
  });
};

/**
 * The speech model that transcribes a project's media: its default speech model where a team provider serves it,
 * else the environment's, else none (videos' captions).
 */
export const resolveSpeechModel = async (projectId: string): Promise<SpeechModel | null> => {
  const team = await defaultEndpoint(projectId, "speech");
  return team ? createSpeechModel({ baseUrl: team.baseUrl, apiKey: team.apiKey, model: team.model }) : getSpeechModel();
};

/** What answers a role when the environment alone decides (no project default, or one nothing serves). */
export const environmentDefault = (role: ModelRole): ResolvedRole => {
  const local = (model: string): ResolvedRole => ({ role, model, providerName: null, source: "local" });
  const configured = environmentProviders().find((p) => p.id === `env:${role}`);
  if (role === "chat") {
    const chat = getChatModel();
    return chat ? { role, model: chat.id, providerName: "Chat model", source: "environment" } : local(LOCAL_ANSWERER);
  }
  if (configured?.servedModels[0]) {
    return { role, model: configured.servedModels[0], providerName: configured.name, source: "environment" };
  }
  if (role === "embedding") return local(LOCAL_EMBEDDING_MODEL);
  if (role === "rerank") return local(getReranker().model);
  return local(role === "vision" ? "text layer and OCR (no vision model)" : "no speech model (videos' captions)");
};

/**
 * What each role resolves to for a project, as the settings page and the node pickers say it ("Default (…)"):
 * the project's default where something serves it, else the environment's, else the local method.
 */
export const resolvedRoles = async (projectId: string): Promise<ResolvedRole[]> => {
  const { teamId, defaults } = await projectModelsOf(projectId);
  const out: ResolvedRole[] = [];
  for (const role of MODEL_ROLES) {
    const chosen = defaults[role];
    const served = chosen ? (await servedForRole(teamId, role)).find((m) => m.model === chosen) : undefined;
    out.push(
      served
        ? { role, model: served.model, providerName: served.providerName, source: "project" }
        : environmentDefault(role),
    );
  }
  return out;
};

/** The project's chat model, or a 400 naming where one is added, for what has no local method. */
export const requireChatModel = async (projectId: string, what: string): Promise<ChatModel> => {
  const model = await resolveChatModel(projectId);
  if (model) return model;
  const { teamId } = await projectModelsOf(projectId);
  throw new AppError("BAD_REQUEST", needsChatModel(what, teamId));
};

/** "<what> needs a chat model": the dashboard page that adds one, and the settings that configure one install-wide. */
export const needsChatModel = (what: string, teamId: string) =>
  `${what} needs a chat model; add a provider at ${providersPagePath(teamId)} or configure ${CHAT_SETTING_HINT}`;
