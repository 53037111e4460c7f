"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { ThinkingLevel } from "@/server/answers/thinking.schema";
import { useAskStream, type Exchange } from "./use-ask-stream";

/**
 * A v4 UUID. crypto.randomUUID exists in secure contexts only; a deployment served over plain http on a LAN
 * address has getRandomValues alone.
 */
const newConversationId = (): string => {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/**
 * The conversation the URL names (`?c=`), so Back, a reload or a shared link returns to it: its stored turns are
 * loaded once when it is opened; a conversation started here is only given its id in the URL, not reloaded.
 */
const useConversationInUrl = (projectId: string, stream: ReturnType<typeof useAskStream>) => {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const conversationId = useSearchParams().get("c") ?? undefined;
  const [startedHere, setStartedHere] = useState<string | null>(null);
  const opened = conversationId !== undefined && conversationId !== startedHere;
  const turns = useQuery(
    trpc.dashboard.answers.turns.queryOptions(
      { projectId, conversationId: conversationId ?? "" },
      // Read once per opening: a refetch would replace the streamed answers (with their citations) by stored text.
      { enabled: opened, staleTime: Infinity, gcTime: 0, refetchOnWindowFocus: false },
    ),
  );
  const { clear, load } = stream;
  // Another conversation in the URL (the list, "New conversation", Back) drops the exchanges shown; adjusted while
  // rendering, as React advises for state that follows a prop, so the old answers never flash under the new id.
  const [shown, setShown] = useState(conversationId);
  if (shown !== conversationId) {
    setShown(conversationId);
    if (conversationId !== startedHere) {
      setStartedHere(null);
      clear();
    }
  }
  useEffect(() => {
    if (!opened || !turns.data) return;
    load(
      turns.data.map((t): Exchange => ({
        question: t.question,
        text: t.answer,
        citations: t.citations,
        response: null,
        error: null,
      })),
    );
  }, [opened, turns.data, load]);

  /** The id the next question goes under: the open conversation's, or a new one written into the URL. */
  const conversationForQuestion = () => {
    if (conversationId) return conversationId;
    const id = newConversationId();
    setStartedHere(id);
    router.replace(`${pathname}?c=${id}`, { scroll: false });
    return id;
  };
  const open = (id: string | null) => router.push(id ? `${pathname}?c=${encodeURIComponent(id)}` : pathname);
  return { conversationId, turns, conversationForQuestion, open };
};

/**
 * The playground's state: the completed sources to pick from, the question being typed, and the conversation it
 * continues; "New conversation" starts another under a new id, the list reopens earlier ones.
 */
export const useChatPlayground = (projectId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sources = useQuery(
    trpc.dashboard.sources.list.queryOptions({
      projectId,
      built: true,
      pageSize: 100,
      sort: "fileName",
      direction: "asc",
    }),
  );
  const stream = useAskStream(projectId);
  const { exchanges, busy, ask } = stream;
  const url = useConversationInUrl(projectId, stream);
  const [picked, setPicked] = useState<string[]>([]);
  const [level, setLevel] = useState<ThinkingLevel>("accurate");
  const [question, setQuestion] = useState("");

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!question.trim() || busy) return;
    const text = question.trim();
    setQuestion("");
    await ask({ question: text, conversationId: url.conversationForQuestion(), fileIds: picked, thinkingLevel: level });
    // The list shows the new conversation, or moves this one to the top.
    void queryClient.invalidateQueries({ queryKey: trpc.dashboard.answers.conversations.queryKey({ projectId }) });
  };

  const startOver = () => url.open(null);

  return {
    sources,
    exchanges,
    busy,
    picked,
    setPicked,
    level,
    setLevel,
    question,
    setQuestion,
    onSubmit,
    startOver,
    conversationId: url.conversationId,
    loadingTurns: url.turns.isFetching,
    openConversation: url.open,
  };
};

export type ChatPlaygroundState = ReturnType<typeof useChatPlayground>;
