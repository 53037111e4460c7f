import { prepareAsk, runAsk } from "@/server/answers/ask";
import { listTurns } from "@/server/answers/conversations";
import { ConversationInput, PlaygroundAskInput } from "@/server/answers/playground.schema";
import { AnswerStream } from "@/server/http/answer-stream";
import { projectProcedure, router } from "../../init";

/** The chat playground: members ask (it spends model tokens); viewers read a conversation's turns. */
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
        createdAt: t.createdAt,
      })),
    ),
});
