import { z } from "zod";
import type { ProviderKind } from "./model-providers.schema";

/**
 * A project's default model per role (isomorphic: the settings page and the procedures share it). A role left unset
 * is answered by the install's default (environment settings), else by Quarry's local method.
 */

export const MODEL_ROLES = ["chat", "embedding", "rerank", "vision", "speech"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

export const ROLE_LABELS: Record<ModelRole, string> = {
  chat: "Chat",
  embedding: "Embedding",
  rerank: "Reranking",
  vision: "Vision",
  speech: "Speech to text",
};

/**
 * The kinds of a team's provider whose models may fill a role. An OpenAI-style server lists every model it has
 * (chat, embedding, vision) under one /models, so its kinds count for each of those roles.
 */
export const ROLE_KINDS: Record<ModelRole, readonly ProviderKind[]> = {
  chat: ["openai", "groq", "openai_compatible"],
  embedding: ["embedding", "openai", "openai_compatible"],
  rerank: ["rerank"],
  vision: ["vision", "openai", "groq", "openai_compatible"],
  speech: ["speech", "openai", "groq"],
};

/** What the local methods are called where no model answers a role. */
export const LOCAL_ANSWERER = "local extractive answerer";

const ModelId = z.string().trim().min(1, { error: "A model id cannot be empty" }).max(200).nullable();

export const ProjectModels = z.object({
  chat: ModelId,
  embedding: ModelId,
  rerank: ModelId,
  vision: ModelId,
  speech: ModelId,
});
export type ProjectModels = z.infer<typeof ProjectModels>;

/** A change of some roles; a role given as null goes back to the install's default. */
export const SetProjectModelsInput = ProjectModels.partial();
export type SetProjectModelsInput = z.infer<typeof SetProjectModelsInput>;

/** What a role resolves to for a project: the model that answers and who serves it, or the local method. */
export type ResolvedRole = {
  role: ModelRole;
  model: string;
  providerName: string | null;
  source: "project" | "environment" | "local";
};

/** The dashboard page where an admin adds a provider (named by errors that need a model). */
export const providersPagePath = (teamId: string) => `/teams/${teamId}/providers`;

/** The project's Models page, where its default model per role is chosen. */
export const projectModelsPagePath = (projectId: string) => `/${projectId}/settings/models`;
