import { db } from "../db";
import { DEFAULT_PROMPT, type Prompt } from "./graph.schema";

/** The project's prompts for llm and response nodes, the built-in default first (contract §2.11). */
export const listPrompts = async (projectId: string): Promise<Prompt[]> => {
  const rows = await db.flowPrompt.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
  return [
    DEFAULT_PROMPT,
    ...rows
      .filter((r) => r.promptId !== DEFAULT_PROMPT.id)
      .map((r) => ({ id: r.promptId, name: r.name, text: r.text })),
  ];
};

export const promptIds = async (projectId: string) => new Set((await listPrompts(projectId)).map((p) => p.id));

/** Creates or replaces project prompts (the built-in one cannot be replaced). */
export const savePrompts = async (projectId: string, prompts: Prompt[]) => {
  for (const p of prompts.filter((p) => p.id !== DEFAULT_PROMPT.id)) {
    await db.flowPrompt.upsert({
      where: { projectId_promptId: { projectId, promptId: p.id } },
      create: { projectId, promptId: p.id, name: p.name, text: p.text },
      update: { name: p.name, text: p.text },
    });
  }
};
