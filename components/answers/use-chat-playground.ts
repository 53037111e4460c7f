"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { ThinkingLevel } from "@/server/answers/thinking.schema";
import { useAskStream } from "./use-ask-stream";

/**
 * The playground's state: the completed sources to pick from, the question being typed, and the conversation it
 * continues (or resets, after "New conversation").
 */
export const useChatPlayground = (projectId: string) => {
  const trpc = useTRPC();
  const sources = useQuery(
    trpc.dashboard.sources.list.queryOptions({
      projectId,
      status: "Completed",
      pageSize: 100,
      sort: "fileName",
      direction: "asc",
    }),
  );
  const { exchanges, busy, ask, clear } = useAskStream(projectId);
  const [picked, setPicked] = useState<string[]>([]);
  const [level, setLevel] = useState<ThinkingLevel>("accurate");
  const [question, setQuestion] = useState("");
  const [conversationId, setConversationId] = useState<string | undefined>();
  const [resetNext, setResetNext] = useState(false);
  const latest = exchanges.at(-1)?.response?.conversationId;
  const conversation = latest ?? conversationId;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!question.trim() || busy) return;
    const text = question.trim();
    setQuestion("");
    await ask({
      question: text,
      conversationId: conversation,
      reset: resetNext,
      fileIds: picked,
      thinkingLevel: level,
    });
    setResetNext(false);
    setConversationId(conversation);
  };

  const startOver = () => {
    clear();
    setResetNext(true);
  };

  return { sources, exchanges, busy, picked, setPicked, level, setLevel, question, setQuestion, onSubmit, startOver };
};

export type ChatPlaygroundState = ReturnType<typeof useChatPlayground>;
