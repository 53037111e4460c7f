import { env } from "../../env";
import { createVisionModel } from "./client";
import type { VisionModel } from "./types";

export type * from "./types";
export { createVisionModel } from "./client";

/**
 * The configured vision model (VISION_MODEL; VISION_BASE_URL and VISION_API_KEY default to the LLM ones), or null:
 * then `agentic` is refused and `auto` reads scans with OCR.
 */
export const getVisionModel = (): VisionModel | null =>
  env.VISION_MODEL
    ? createVisionModel({
        baseUrl: env.VISION_BASE_URL ?? env.LLM_BASE_URL,
        apiKey: env.VISION_API_KEY ?? env.LLM_API_KEY,
        model: env.VISION_MODEL,
      })
    : null;
