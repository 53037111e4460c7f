import { z } from "zod";
import { FlowName } from "../flows/graph.schema";

/** Inputs of the dashboard's evaluation procedures. Isomorphic (zod only): the editor's forms check the same rules. */

const ProjectRef = z.object({ projectId: z.uuid() });

export const ImportTestSetInput = ProjectRef.extend({
  name: z.string().trim().min(1, { error: "Name the test set" }).max(100),
  format: z.enum(["jsonl", "csv"]),
  /** The file's text. Through the dashboard it is bounded by QUARRY_MAX_JSON_BODY_KB; the CLI takes up to 10 MB. */
  content: z.string().min(1, { error: "The file is empty" }),
  replace: z.boolean().default(false),
});

export const TestSetRef = ProjectRef.extend({ testSet: z.string().min(1).max(100) });

export const CreateTestSetInput = ProjectRef.extend({
  name: z.string().trim().min(1, { error: "Name the test set" }).max(100),
});

/** A case written in the dashboard: the question, and what a good answer says (optional, as in an import). */
const TestCaseFields = z.object({
  question: z.string().trim().min(1, { error: "Write the question" }).max(4000),
  expectedAnswer: z.string().trim().max(20_000).default(""),
});
export const AddTestCaseInput = TestSetRef.extend(TestCaseFields.shape);
export const UpdateTestCaseInput = ProjectRef.extend({ caseId: z.uuid(), ...TestCaseFields.shape });

export const TestCasesInput = TestSetRef.extend({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});

export const StartEvaluationInput = ProjectRef.extend({
  flowName: FlowName,
  testSet: z.string().min(1).max(100),
  /** The draft, the serving revision, or one kept revision by id. */
  target: z.union([z.literal("draft"), z.literal("deployed"), z.object({ revisionId: z.uuid() })]),
});

export const ListEvaluationRunsInput = ProjectRef.extend({ flowName: FlowName.optional() });

export const EvaluationRunRef = ProjectRef.extend({ runId: z.uuid() });

export const GetEvaluationRunInput = EvaluationRunRef.extend({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});

export const CompareEvaluationRunsInput = ProjectRef.extend({ a: z.uuid(), b: z.uuid() });
