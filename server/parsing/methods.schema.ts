/**
 * Partition method names (contract §3). The internal name is what we store and dispatch on; the v2 name is what
 * the current endpoints accept and report.
 */

export const INTERNAL_METHODS = [
  "basic",
  "hi_res",
  "hi_res_ft",
  "graphorlm",
  "auto",
  "mai",
  "ocr",
  "yolox",
  "advanced",
] as const;
export type InternalMethod = (typeof INTERNAL_METHODS)[number];

export const V2_METHODS = ["auto", "fast", "balanced", "accurate", "agentic"] as const;
export type V2Method = (typeof V2_METHODS)[number];

/** The names legacy endpoints list in their error message (the official client's `PublicPartitionMethod`). */
export const LEGACY_LISTED_METHODS = ["basic", "hi_res", "hi_res_ft", "mai", "graphorlm"] as const;

/**
 * What a Source's `partition_method` may be: the official Python client checks it against these names only
 * (`PartitionMethod`, src/graphor/types/partition_method.py) and, in strict mode, refuses a whole list holding any
 * other. `auto` is not among them, so it is reported as null (contract §3 "Reporting"); `method` still says `auto`.
 */
export const REPORTED_PARTITION_METHODS = [
  "basic",
  "hi_res",
  "hi_res_ft",
  "mai",
  "graphorlm",
  "ocr",
  "advanced",
  "yolox",
] as const;

export const reportedPartitionMethod = (method: string | null) =>
  method && (REPORTED_PARTITION_METHODS as readonly string[]).includes(method) ? method : null;

export const v2ToInternal: Record<V2Method, InternalMethod> = {
  auto: "auto",
  fast: "basic",
  balanced: "hi_res",
  accurate: "hi_res_ft",
  agentic: "graphorlm",
};

/** `yolox` and `advanced` are reported under the v2 name of the method they stand in for; `mai` and `ocr` have none. */
export const internalToV2: Record<InternalMethod, V2Method | null> = {
  basic: "fast",
  hi_res: "balanced",
  hi_res_ft: "accurate",
  graphorlm: "agentic",
  auto: "auto",
  mai: null,
  ocr: null,
  yolox: "balanced",
  advanced: "accurate",
};

export const isV2Method = (value: string): value is V2Method => (V2_METHODS as readonly string[]).includes(value);

export const isInternalMethod = (value: string): value is InternalMethod =>
  (INTERNAL_METHODS as readonly string[]).includes(value);

/**
 * Legacy endpoints take internal names and, for old clients, the v2 names too. Returns null for anything else so
 * the caller can word its own 400.
 */
export const normalizeLegacyMethod = (value: string): InternalMethod | null => {
  if (isInternalMethod(value)) return value;
  if (isV2Method(value)) return v2ToInternal[value];
  return null;
};

/** The name shown to people: the v2 name when there is one. */
export const methodDisplayName = (method: InternalMethod): string => internalToV2[method] ?? method;
