import { z } from "zod";
import { THINKING_LEVELS } from "./thinking.schema";

/** The dashboard chat playground's requests (browser and server share them). */

export const PlaygroundAskInput = z.object({
  projectId: z.uuid(),
  question: z.string().trim().min(1, { error: "Write a question" }).max(4000),
  conversationId: z.string().trim().min(1).max(200).optional(),
  reset: z.boolean().default(false),
  fileIds: z.array(z.uuid()).max(200).optional(),
  thinkingLevel: z.enum(THINKING_LEVELS).default("accurate"),
});
export type PlaygroundAskInput = z.input<typeof PlaygroundAskInput>;

export const ConversationInput = z.object({ projectId: z.uuid(), conversationId: z.string().trim().min(1).max(200) });

export const ListConversationsInput = z.object({
  projectId: z.uuid(),
  limit: z.number().int().min(1).max(100).default(50),
});

export const RenameConversationInput = ConversationInput.extend({
  title: z.string().trim().min(1, { error: "Give the conversation a name" }).max(120),
});
