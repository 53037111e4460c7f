import type { Fetcher } from "./fetch";
import type { Origin } from "./origin";

/**
 * What every connector shares: the context the acquire step hands it and what it hands back. Connectors import
 * these from here (not from acquire.ts, which imports the connectors through the registry).
 */

export type Report = Record<string, unknown>;

/** Writes the build's `acquired` report while a connector works, at most once a second (and always at the end). */
export type Reporter = {
  update: (report: Report, progress?: number) => void;
  flush: () => Promise<void>;
};

/** Progress figures of the acquire step: it runs between load (5) and partition (40). */
export const ACQUIRE_PROGRESS = { start: 5, end: 25 } as const;

export type AcquireContext = {
  buildId: string;
  projectId: string;
  sourceId: string;
  /** Where this build's snapshot goes (`snapshot-<buildId>/`). */
  folder: string;
  report: Reporter;
  fetcher: Fetcher;
};

/** What a connector hands back: the key partition reads (a manifest, or a single file parsed like an upload). */
export type Acquired = {
  storageKey: string;
  fileType: string;
  fileSize: number;
  mimeType?: string | null;
  report: Report;
};

export type OriginKind = Origin["kind"];
export type OriginOf<K extends OriginKind> = Extract<Origin, { kind: K }>;

/** One kind of connector source: fetches what its origin names into the build's snapshot folder. */
export type Connector<K extends OriginKind> = {
  kind: K;
  acquire: (origin: OriginOf<K>, ctx: AcquireContext) => Promise<Acquired>;
};
