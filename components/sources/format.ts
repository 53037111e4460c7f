import type { SourceRow, SourceStatus } from "./types";

const UNITS = ["B", "KB", "MB", "GB"] as const;

export const formatBytes = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
};

const STEP_LABELS: Record<string, string> = {
  load: "Loading",
  acquire: "Fetching",
  partition: "Partitioning",
  chunk: "Chunking",
  embed: "Embedding",
  index: "Indexing",
  finalize: "Finalizing",
};

export const formatStep = (step: string | null): string => (step ? (STEP_LABELS[step] ?? step) : "Queued");

export const isSourceBusy = (status: SourceStatus): boolean => status === "New" || status === "Processing";

/** A row is still moving while its source or its newest build is; the list polls until none is. */
export const isRowBusy = (row: SourceRow): boolean =>
  isSourceBusy(row.status) || row.build?.status === "Pending" || row.build?.status === "Processing";
