import {
  AddTestCaseInput,
  CompareEvaluationRunsInput,
  CreateTestSetInput,
  EvaluationRunRef,
  GetEvaluationRunInput,
  ImportTestSetInput,
  ListEvaluationRunsInput,
  StartEvaluationInput,
  TestCasesInput,
  TestSetRef,
  UpdateTestCaseInput,
} from "@/server/evaluation/evaluation.schema";
import {
  cancelEvaluationRun,
  compareEvaluationRuns,
  deleteEvaluationRun,
  getEvaluationRun,
  listEvaluationRuns,
  startEvaluation,
} from "@/server/evaluation/runs";
import {
  addTestCase,
  createTestSet,
  deleteTestSet,
  importTestSet,
  listTestCases,
  listTestSets,
  updateTestCase,
} from "@/server/evaluation/testsets";
import { z } from "zod";
import { projectProcedure, router } from "../../init";

/**
 * Flow evaluation: test sets and evaluation runs of a project. Viewers read; members import, write cases, delete,
 * start and cancel (a run spends model tokens, as a flow run does).
 */
export const evaluationRouter = router({
  testSets: projectProcedure("viewer")
    .input(z.object({ projectId: z.uuid() }))
    .query(({ ctx }) => listTestSets(ctx.projectId)),

  testCases: projectProcedure("viewer")
    .input(TestCasesInput)
    .query(({ ctx, input }) => listTestCases(ctx.projectId, input.testSet, input.page, input.pageSize)),

  importTestSet: projectProcedure("member")
    .input(ImportTestSetInput)
    .mutation(async ({ ctx, input }) => {
      const set = await importTestSet({ ...input, projectId: ctx.projectId });
      return { id: set.id, name: set.name, caseCount: set.caseCount };
    }),

  createTestSet: projectProcedure("member")
    .input(CreateTestSetInput)
    .mutation(async ({ ctx, input }) => {
      const set = await createTestSet({ projectId: ctx.projectId, name: input.name });
      return { id: set.id, name: set.name, caseCount: set.caseCount };
    }),

  addTestCase: projectProcedure("member")
    .input(AddTestCaseInput)
    .mutation(({ ctx, input }) => addTestCase({ ...input, projectId: ctx.projectId })),

  updateTestCase: projectProcedure("member")
    .input(UpdateTestCaseInput)
    .mutation(({ ctx, input }) => updateTestCase({ ...input, projectId: ctx.projectId })),

  deleteTestSet: projectProcedure("member")
    .input(TestSetRef)
    .mutation(({ ctx, input }) => deleteTestSet(ctx.projectId, input.testSet)),

  start: projectProcedure("member")
    .input(StartEvaluationInput)
    .mutation(({ ctx, input }) =>
      startEvaluation({
        projectId: ctx.projectId,
        flowName: input.flowName,
        testSet: input.testSet,
        target: input.target,
        createdBy: ctx.auth.email,
      }),
    ),

  runs: projectProcedure("viewer")
    .input(ListEvaluationRunsInput)
    .query(({ ctx, input }) => listEvaluationRuns(ctx.projectId, input.flowName)),

  run: projectProcedure("viewer")
    .input(GetEvaluationRunInput)
    .query(({ ctx, input }) => getEvaluationRun(ctx.projectId, input.runId, input.page, input.pageSize)),

  cancel: projectProcedure("member")
    .input(EvaluationRunRef)
    .mutation(({ ctx, input }) => cancelEvaluationRun(ctx.projectId, input.runId)),

  deleteRun: projectProcedure("member")
    .input(EvaluationRunRef)
    .mutation(({ ctx, input }) => deleteEvaluationRun(ctx.projectId, input.runId)),

  compare: projectProcedure("viewer")
    .input(CompareEvaluationRunsInput)
    .query(({ ctx, input }) => compareEvaluationRuns(ctx.projectId, input.a, input.b)),
});
