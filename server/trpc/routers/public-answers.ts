import { askSources, prepareAsk, runAsk } from "@/server/answers/ask";
import { AnswerStream } from "@/server/http/answer-stream";
import { runExtraction } from "@/server/extraction/extract";
import { AskSourcesInput, RunExtractionInput } from "@/server/public-api/v1/answers/requests.schema";
import { checked } from "@/server/public-api/checked";
import { toAnswerEvent, toAskResponse, toExtractionResponse } from "@/server/public-api/v1/answers/mappers";
import { AskSourcesResponse, RunExtractionResponse } from "@/server/public-api/v1/answers/responses.schema";
import { apiProcedure, router } from "../init";

const askInput = (projectId: string, input: AskSourcesInput) => ({
  projectId,
  question: input.question,
  conversationId: input.conversation_id,
  reset: input.reset ?? false,
  fileIds: input.file_ids ?? undefined,
  fileNames: input.file_names ?? undefined,
  outputSchema: input.output_schema,
  thinkingLevel: input.thinking_level,
  includeCitationImages: input.include_citation_images ?? false,
  includeCitationMarkup: input.include_citation_markup ?? false,
});

/** Contract §5.13 and §5.14: chat over the project's sources, and extraction against a schema. */
export const publicAnswersRouter = router({
  askSources: apiProcedure("write")
    .input(AskSourcesInput)
    .output(checked(AskSourcesResponse))
    .mutation(async ({ ctx, input }) => {
      const ask = askInput(ctx.projectId, input);
      if (!input.stream) return toAskResponse(await askSources(ask));
      // Streaming: the route sends the events as text/event-stream; errors after the first byte become `error` events.
      const prepared = await prepareAsk(ask);
      return new AnswerStream((onEvent, signal) => runAsk(prepared, { onEvent, signal }), ctx.logger, toAnswerEvent);
    }),

  runExtraction: apiProcedure("write")
    .input(RunExtractionInput)
    .output(checked(RunExtractionResponse))
    .mutation(async ({ ctx, input }) => {
      const extraction = await runExtraction({
        projectId: ctx.projectId,
        fileIds: input.file_ids ?? undefined,
        fileNames: input.file_names ?? undefined,
        userInstruction: input.user_instruction,
        outputSchema: input.output_schema,
        thinkingLevel: input.thinking_level,
      });
      return toExtractionResponse(extraction);
    }),
});
