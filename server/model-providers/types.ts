import type { ConnectionTest, ProviderKind } from "./model-providers.schema";

/**
 * A provider as every procedure returns it: a team's own (editable) or one the environment defines (read-only).
 * There is no field for the key itself, so no procedure can return it.
 */
export type ProviderView = {
  /** A uuid, or `env:<role>` for one the environment defines. */
  id: string;
  source: "team" | "environment";
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  /** "sk-ab…", or null when no key is saved. */
  keyPrefix: string | null;
  keyStatus: "none" | "ok" | "unreadable";
  /** For environment providers: the variables that define it. */
  settings: string | null;
  servedModels: string[];
  modelsFetchedAt: Date | null;
  lastTest: ConnectionTest | null;
  updatedAt: Date | null;
};

/** One model a provider serves, as the per-node model pickers will offer it. */
export type ServedModel = {
  model: string;
  providerId: string;
  providerName: string;
  kind: ProviderKind;
  source: "team" | "environment";
};
