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
  enrich: "Enriching",
  chunk: "Chunking",
  embed: "Embedding",
  index: "Indexing",
  finalize: "Finalizing",
};

export const formatStep = (step: string | null): string => (step ? (STEP_LABELS[step] ?? step) : "Queued");
