import { prepareAsk, runAsk } from "@/server/answers/ask";
import { deleteConversation, listConversations, listTurns, renameConversation } from "@/server/answers/conversations";
import {
  ConversationInput,
  ListConversationsInput,
  PlaygroundAskInput,
  RenameConversationInput,
} from "@/server/answers/playground.schema";
import { AppError } from "@/server/errors";
import { AnswerStream } from "@/server/http/answer-stream";
import { projectProcedure, router } from "../../init";

const NOT_FOUND = "Conversation not found";

/**
 * The chat playground: members ask (it spends model tokens), rename and delete conversations; viewers list the
 * project's conversations and read their turns.
 */
export const answersRouter = router({
  /** Answered as a text/event-stream by app/api/projects/[projectId]/ask (the procedure checks session and role). */
  ask: projectProcedure("member")
    .input(PlaygroundAskInput)
    .mutation(async ({ ctx, input }) => {
      const prepared = await prepareAsk({
        projectId: ctx.projectId,
        question: input.question,
        conversationId: input.conversationId,
        reset: input.reset,
        fileIds: input.fileIds?.length ? input.fileIds : undefined,
        thinkingLevel: input.thinkingLevel,
      });
      // The chat reads the answers domain's own events (server/answers/events.schema.ts).
      return new AnswerStream((onEvent, signal) => runAsk(prepared, { onEvent, signal }), ctx.logger);
    }),

  turns: projectProcedure("viewer")
    .input(ConversationInput)
    .query(async ({ ctx, input }) =>
      (await listTurns({ projectId: ctx.projectId, conversationId: input.conversationId })).map((t) => ({
        id: t.id,
        question: t.question,
        answer: t.answer,
        model: t.model,
        citations: t.citations,
        createdAt: t.createdAt,
      })),
    ),

  conversations: projectProcedure("viewer")
    .input(ListConversationsInput)
    .query(({ ctx, input }) => listConversations({ projectId: ctx.projectId, limit: input.limit })),

  renameConversation: projectProcedure("member")
    .input(RenameConversationInput)
    .mutation(async ({ ctx, input }) => {
      if (!(await renameConversation({ ...input, projectId: ctx.projectId })))
        throw new AppError("NOT_FOUND", NOT_FOUND);
      return { conversationId: input.conversationId, title: input.title };
    }),

  deleteConversation: projectProcedure("member")
    .input(ConversationInput)
    .mutation(async ({ ctx, input }) => {
      if (!(await deleteConversation({ ...input, projectId: ctx.projectId })))
        throw new AppError("NOT_FOUND", NOT_FOUND);
      return { conversationId: input.conversationId };
    }),
});
