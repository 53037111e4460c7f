/** Effort levels of an answer (contract §5.13 `thinking_level`); what each does is in retrieval-plan.ts. */
export const THINKING_LEVELS = ["fast", "balanced", "accurate", "max"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];
