import { randomUUID } from "node:crypto";
import { db } from "../db";
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

/** Turns of a conversation for the dashboard playground, oldest first. */
export const listTurns = async ({ projectId, conversationId }: { projectId: string; conversationId: string }) => {
  const conversation = await db.conversation.findUnique({
    where: { projectId_externalId: { projectId, externalId: conversationId } },
  });
  if (!conversation) return [];
  return db.conversationTurn.findMany({
    where: { conversationId: conversation.id, projectId, createdAt: { gte: cutoff() } },
    orderBy: { createdAt: "asc" },
  });
};
