import { randomUUID } from "node:crypto";
import { db } from "../db";
import { CitationSchema, type Citation } from "./events.schema";
import type { HistoryTurn } from "./prompt";

/**
 * Conversation memory in Postgres, always within one project. Retention (contract §11.15): the last 20 turns of a
 * conversation, for 30 days; pruned on every write, so no sweeper job is needed.
 */

export const MAX_TURNS = 20;
export const RETENTION_DAYS = 30;
/** Turns the model sees as history (the rest is kept for the record but would crowd the context). */
const HISTORY_TURNS = 6;

const cutoff = () => new Date(Date.now() - RETENTION_DAYS * 86_400_000);

/** The conversation's row (created when new: an unknown id starts a conversation under that id). */
export const openConversation = async ({
  projectId,
  conversationId,
  reset = false,
}: {
  projectId: string;
  conversationId?: string | null;
  reset?: boolean;
}) => {
  const externalId = conversationId?.trim() || randomUUID();
  const row = await db.conversation.upsert({
    where: { projectId_externalId: { projectId, externalId } },
    create: { projectId, externalId },
    update: {},
  });
  if (reset) await db.conversationTurn.deleteMany({ where: { conversationId: row.id, projectId } });
  return { id: row.id, externalId };
};

export const conversationHistory = async ({
  projectId,
  conversationRowId,
}: {
  projectId: string;
  conversationRowId: string;
}): Promise<HistoryTurn[]> => {
  const turns = await db.conversationTurn.findMany({
    where: { conversationId: conversationRowId, projectId, createdAt: { gte: cutoff() } },
    orderBy: { createdAt: "desc" },
    take: HISTORY_TURNS,
  });
  return turns.reverse().flatMap((t) => [
    { role: "user" as const, content: t.question },
    { role: "assistant" as const, content: t.answer },
  ]);
};

export const recordTurn = async (turn: {
  projectId: string;
  conversationRowId: string;
  question: string;
  answer: string;
  query: string;
  model: string;
  citations: Citation[];
}) => {
  await db.$transaction(async (tx) => {
    await tx.conversationTurn.create({
      data: {
        conversationId: turn.conversationRowId,
        projectId: turn.projectId,
        question: turn.question,
        answer: turn.answer,
        query: turn.query,
        model: turn.model,
        // Page images are left out: they are large and read again from the page when the citation is opened.
        citations: turn.citations.map((c) => ({ ...c, imageBase64: null })),
      },
    });
    await tx.conversation.update({ where: { id: turn.conversationRowId }, data: { updatedAt: new Date() } });
    const keep = await tx.conversationTurn.findMany({
      where: { conversationId: turn.conversationRowId },
      orderBy: { createdAt: "desc" },
      take: MAX_TURNS,
      select: { id: true },
    });
    await tx.conversationTurn.deleteMany({
      where: { conversationId: turn.conversationRowId, id: { notIn: keep.map((k) => k.id) } },
    });
    // Expired turns and conversations of this project (the project's own rows only; cheap on the created_at index).
    await tx.conversationTurn.deleteMany({ where: { projectId: turn.projectId, createdAt: { lt: cutoff() } } });
    await tx.conversation.deleteMany({ where: { projectId: turn.projectId, updatedAt: { lt: cutoff() } } });
  });
};

/** Stored citations, read back through their schema (a row written before citations were kept has none). */
const storedCitations = (value: unknown): Citation[] => {
  const parsed = CitationSchema.array().safeParse(value);
  return parsed.success ? parsed.data : [];
};

/** Turns of a conversation for the dashboard playground, oldest first, with the passages each answer cited. */
export const listTurns = async ({ projectId, conversationId }: { projectId: string; conversationId: string }) => {
  const conversation = await db.conversation.findUnique({
    where: { projectId_externalId: { projectId, externalId: conversationId } },
  });
  if (!conversation) return [];
  const turns = await db.conversationTurn.findMany({
    where: { conversationId: conversation.id, projectId, createdAt: { gte: cutoff() } },
    orderBy: { createdAt: "asc" },
  });
  return turns.map((t) => ({ ...t, citations: storedCitations(t.citations) }));
};

/** A project's conversations for the dashboard's list, newest first, titled by a rename or else the first question. */
export const listConversations = async ({ projectId, limit }: { projectId: string; limit: number }) => {
  const rows = await db.conversation.findMany({
    where: { projectId, updatedAt: { gte: cutoff() }, turns: { some: {} } },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    take: limit,
    include: {
      turns: { orderBy: { createdAt: "asc" }, take: 1, select: { question: true } },
      _count: { select: { turns: true } },
    },
  });
  return rows.map((c) => ({
    conversationId: c.externalId,
    title: c.title ?? c.turns[0]?.question ?? "Untitled conversation",
    turnCount: c._count.turns,
    updatedAt: c.updatedAt,
  }));
};

/** Renames a conversation of the project; false when the project has no conversation by that id. */
export const renameConversation = async (input: { projectId: string; conversationId: string; title: string }) => {
  const row = await db.conversation.findUnique({
    where: { projectId_externalId: { projectId: input.projectId, externalId: input.conversationId } },
  });
  if (!row) return false;
  // The title is display-only: a rename keeps updatedAt, so it does not move the conversation to the top of the list.
  await db.conversation.update({ where: { id: row.id }, data: { title: input.title, updatedAt: row.updatedAt } });
  return true;
};

/** Deletes a conversation and its turns (cascade); false when the project has no conversation by that id. */
export const deleteConversation = async ({
  projectId,
  conversationId,
}: {
  projectId: string;
  conversationId: string;
}) => {
  const { count } = await db.conversation.deleteMany({ where: { projectId, externalId: conversationId } });
  return count > 0;
};
