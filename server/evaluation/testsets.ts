import { db } from "../db";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { parseTestSet, type ParsedCase, type TestSetFormat } from "./testset-parse";

/** A project's test sets: import (JSONL or CSV), list, read cases, delete. Every query is scoped by project. */

export const TEST_SET_NAME_MAX = 100;

/** Gold documents named by id must be this project's sources; named by file name, they are resolved to ids. */
const resolveFiles = async (projectId: string, cases: ParsedCase[]) => {
  const ids = [...new Set(cases.flatMap((c) => c.relevantFileIds))];
  const names = [...new Set(cases.flatMap((c) => c.relevantFiles))];
  if (!ids.length && !names.length) return cases.map((c) => c.relevantFileIds);
  const sources = await db.source.findMany({
    where: { projectId, OR: [{ id: { in: ids } }, { fileName: { in: names } }] },
    select: { id: true, fileName: true },
  });
  const known = new Set(sources.map((s) => s.id));
  const byName = new Map<string, string>();
  for (const s of sources) if (!byName.has(s.fileName)) byName.set(s.fileName, s.id);
  return cases.map((c) => {
    const unknownId = c.relevantFileIds.find((id) => !known.has(id));
    if (unknownId) throw new AppError("BAD_REQUEST", `Line ${c.line}: no file with id ${unknownId} in this project`);
    const unknownName = c.relevantFiles.find((n) => !byName.has(n));
    if (unknownName) throw new AppError("BAD_REQUEST", `Line ${c.line}: no file named ${unknownName} in this project`);
    return [...new Set([...c.relevantFileIds, ...c.relevantFiles.map((n) => byName.get(n)!)])];
  });
};

export const importTestSet = async ({
  projectId,
  name,
  content,
  format,
  replace = false,
}: {
  projectId: string;
  name: string;
  content: string;
  format: TestSetFormat;
  replace?: boolean;
}) => {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > TEST_SET_NAME_MAX)
    throw new AppError("BAD_REQUEST", `A test set name has 1 to ${TEST_SET_NAME_MAX} characters`);
  const cases = parseTestSet(content, format);
  const fileIds = await resolveFiles(projectId, cases);
  const existing = await db.testSet.findFirst({ where: { projectId, name: trimmed } });
  if (existing && !replace) throw new AppError("CONFLICT", `A test set named ${trimmed} already exists`);
  return db.$transaction(async (tx) => {
    if (existing) await tx.testSet.delete({ where: { id: existing.id } });
    const set = await tx.testSet.create({ data: { projectId, name: trimmed, caseCount: cases.length } });
    await tx.testCase.createMany({
      data: cases.map((c, position) => ({
        testSetId: set.id,
        projectId,
        position,
        question: c.question,
        expectedAnswer: c.expectedAnswer,
        relevantFileIds: fileIds[position]!,
        relevantPassages: c.relevantPassages,
      })),
    });
    return set;
  });
};

export const listTestSets = (projectId: string) =>
  db.testSet.findMany({
    where: { projectId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, caseCount: true, createdAt: true },
  });

/** A test set by id or by name; another project's is not found. */
export const requireTestSet = async (projectId: string, ref: string) => {
  const set = await db.testSet.findFirst({
    where: { projectId, ...(isUuid(ref) ? { OR: [{ id: ref }, { name: ref }] } : { name: ref }) },
  });
  if (!set) throw new AppError("NOT_FOUND", `Test set ${ref} not found`);
  return set;
};

export const listTestCases = async (projectId: string, ref: string, page: number, pageSize: number) => {
  const set = await requireTestSet(projectId, ref);
  const cases = await db.testCase.findMany({
    where: { projectId, testSetId: set.id },
    orderBy: { position: "asc" },
    skip: (page - 1) * pageSize,
    take: pageSize,
  });
  return { testSet: set, cases, total: set.caseCount, page, pageSize };
};

export const deleteTestSet = async (projectId: string, ref: string) => {
  const set = await requireTestSet(projectId, ref);
  await db.testSet.delete({ where: { id: set.id } });
  return { id: set.id, name: set.name };
};

/** An empty test set, filled case by case in the dashboard. */
export const createTestSet = async ({ projectId, name }: { projectId: string; name: string }) => {
  const trimmed = name.trim();
  if (await db.testSet.findFirst({ where: { projectId, name: trimmed } }))
    throw new AppError("CONFLICT", `A test set named ${trimmed} already exists`);
  return db.testSet.create({ data: { projectId, name: trimmed } });
};

type CaseFields = { question: string; expectedAnswer: string };

/** Appends a case to a test set, after its last one. */
export const addTestCase = async ({
  projectId,
  testSet,
  ...fields
}: { projectId: string; testSet: string } & CaseFields) => {
  const set = await requireTestSet(projectId, testSet);
  return db.$transaction(async (tx) => {
    const last = await tx.testCase.findFirst({
      where: { projectId, testSetId: set.id },
      orderBy: { position: "desc" },
      select: { position: true },
    });
    const row = await tx.testCase.create({
      data: { testSetId: set.id, projectId, position: (last?.position ?? -1) + 1, ...fields },
    });
    await tx.testSet.update({ where: { id: set.id }, data: { caseCount: { increment: 1 } } });
    return row;
  });
};

/**
 * Changes a case's question and expected answer (its gold files and passages stay). Runs already made keep the
 * scores they had: they are a record of what was asked then.
 */
export const updateTestCase = async ({
  projectId,
  caseId,
  ...fields
}: { projectId: string; caseId: string } & CaseFields) => {
  const { count } = await db.testCase.updateMany({ where: { id: caseId, projectId }, data: fields });
  if (count === 0) throw new AppError("NOT_FOUND", "Test case not found");
  return db.testCase.findFirstOrThrow({ where: { id: caseId, projectId } });
};
