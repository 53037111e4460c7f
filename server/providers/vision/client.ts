import { chatComplete } from "../chat/complete";
import type { VisionModel, VisionModelConfig } from "./types";

/** The vision model of a config; reads no environment, so a parse worker process can call it with a job's config. */
export const createVisionModel = (config: VisionModelConfig): VisionModel => ({
  id: config.model,
  config,
  completeJson: ({ messages, maxTokens, timeoutMs }) =>
    chatComplete(config, { messages, json: true, maxTokens, timeoutMs, capability: "vision" }),
});
