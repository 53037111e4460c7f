import { env } from "../../env";
import { createSpeechModel } from "./client";
import type { SpeechModel } from "./types";

export type * from "./types";
export { createSpeechModel } from "./client";

/**
 * The configured speech model (SPEECH_BASE_URL, SPEECH_API_KEY, SPEECH_MODEL), or null when none is set: media then
 * falls back to the subtitle tracks inside the file.
 */
export const getSpeechModel = (): SpeechModel | null =>
  env.SPEECH_BASE_URL
    ? createSpeechModel({ baseUrl: env.SPEECH_BASE_URL, apiKey: env.SPEECH_API_KEY, model: env.SPEECH_MODEL })
    : null;
