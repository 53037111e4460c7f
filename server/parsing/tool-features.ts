import { findTool, SYSTEM_TOOLS, type SystemToolName } from "./system-tools";

/**
 * What each optional system tool makes possible, so a start can say what a missing one disables (instead of the first
 * failed build saying it), GET /config can tell clients, and the dashboard can show it. The formats are those the
 * parsers and the screenshot route send to the tool (office/index.ts LEGACY, screenshots of Office kinds, media).
 */

export type ToolFeature = {
  feature: string;
  /** Every tool the feature needs, in the order they are looked up. */
  tools: SystemToolName[];
  formats: string[];
  /** What stops working, for the start line: "<disables> are disabled". */
  disables: string;
};

export const TOOL_FEATURES: ToolFeature[] = [
  {
    feature: "legacy-office-documents",
    tools: ["soffice"],
    formats: ["doc", "ppt", "xls", "ods", "odp", "rtf"],
    disables: ".doc/.ppt/.xls/.ods/.odp/.rtf builds",
  },
  {
    feature: "office-page-images",
    tools: ["soffice"],
    formats: ["doc", "docx", "ppt", "pptx", "odt", "ods", "odp", "rtf"],
    disables: "Office page images",
  },
  {
    feature: "audio-video",
    tools: ["ffmpeg", "ffprobe"],
    formats: ["mp3", "wav", "m4a", "ogg", "flac", "mp4", "mov", "avi", "mkv", "webm"],
    disables: "audio and video",
  },
];

/** A feature this server cannot offer: the first tool it lacks and the package that brings it. */
export type UnavailableFeature = { feature: string; tool: SystemToolName; package: string; formats: string[] };

export const unavailableFeatures = async (): Promise<UnavailableFeature[]> => {
  const missing: UnavailableFeature[] = [];
  for (const { feature, tools, formats } of TOOL_FEATURES) {
    for (const tool of tools) {
      if (await findTool(tool)) continue;
      missing.push({ feature, tool, package: SYSTEM_TOOLS[tool].apt, formats });
      break;
    }
  }
  return missing;
};

/**
 * One line for the start: each missing tool, what it disables, and one install command, e.g. "Missing system tools:
 * LibreOffice (soffice): .doc/… builds and Office page images are disabled. Install with: apt-get install …".
 */
export const missingToolsLine = (missing: UnavailableFeature[]): string | null => {
  if (missing.length === 0) return null;
  const byTool = new Map<SystemToolName, string[]>();
  for (const { feature, tool } of missing) {
    const disables = TOOL_FEATURES.find((f) => f.feature === feature)!.disables;
    byTool.set(tool, [...(byTool.get(tool) ?? []), disables]);
  }
  const parts = [...byTool].map(
    ([tool, what]) => `${SYSTEM_TOOLS[tool].label} (${tool}): ${what.join(" and ")} are disabled`,
  );
  const packages = [...new Set(missing.map((m) => m.package))].join(" ");
  return `Missing system tools: ${parts.join("; ")}. Install with: apt-get install ${packages}`;
};
