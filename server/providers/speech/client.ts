import { transcribeAudio } from "./transcribe";
import type { SpeechModel, SpeechModelConfig } from "./types";

/** The speech model of a config; reads no environment, so a parse worker process can call it with a job's config. */
export const createSpeechModel = (config: SpeechModelConfig): SpeechModel => ({
  id: config.model,
  config,
  transcribe: (request) => transcribeAudio(config, request),
});
