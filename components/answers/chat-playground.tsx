"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useState, type FormEvent, type ReactNode } from "react";
import { useProject } from "@/components/sources/use-project";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Select, Textarea } from "@/components/ui/input";
import { EmptyState, Spinner } from "@/components/ui/states";
import type { Citation } from "@/server/answers/events.schema";
import { THINKING_LEVELS, type ThinkingLevel } from "@/server/answers/thinking.schema";
import { useAskStream, type Exchange } from "./use-ask-stream";

const LEVELS: Record<ThinkingLevel, string> = {
  fast: "Fast — one search",
  balanced: "Balanced — reranked search",
  accurate: "Accurate — several searches",
  max: "Max — searches until the context suffices",
};

const viewerHref = (projectId: string, c: Citation) => {
  const target = new URLSearchParams();
  if (c.page_number !== null) target.set("page", String(c.page_number));
  if (c.element_id) target.set("element", c.element_id);
  return `/${projectId}/sources/${c.file_id}?${target}`;
};

/** The answer text with each `[N]` turned into a link to its citation's page in the element viewer. */
const AnswerText = ({ projectId, exchange }: { projectId: string; exchange: Exchange }) => {
  const parts: ReactNode[] = exchange.text.split(/(\[\d+\])/).map((part, i) => {
    const n = /^\[(\d+)\]$/.exec(part)?.[1];
    const citation = n ? exchange.citations.find((c) => c.index === Number(n)) : undefined;
    if (!citation) return <Fragment key={i}>{part}</Fragment>;
    return (
      <Link
        key={i}
        href={viewerHref(projectId, citation)}
        className="font-medium text-link hover:underline"
        title={`${citation.file_name}${citation.page_number !== null ? `, page ${citation.page_number}` : ""}`}
      >
        {part}
      </Link>
    );
  });
  return <p className="text-sm whitespace-pre-wrap">{parts}</p>;
};

/** Pick sources, ask, watch the answer stream, follow a citation to the element viewer; continue or start over. */
export const ChatPlayground = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const project = useProject(projectId);
  const canAsk = project.can("member");
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
  const latest = exchanges.at(-1)?.response?.conversation_id;
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

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Chat</h1>
      {!canAsk && project.data && (
        <Notice>Asking spends model tokens, so it needs the member role; you are {project.data.role}.</Notice>
      )}
      <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
        <Card className="p-4" label="Sources to ask">
          <fieldset>
            <legend className="mb-2 text-sm font-medium">Sources</legend>
            <p className="mb-2 text-xs text-muted-foreground">None picked: every indexed source of the project.</p>
            {sources.isLoading && <Spinner />}
            {sources.data?.items.length === 0 && (
              <p className="text-sm text-muted-foreground">No completed sources yet.</p>
            )}
            <ul className="max-h-80 space-y-1 overflow-y-auto">
              {sources.data?.items.map((s) => (
                <li key={s.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={picked.includes(s.id)}
                      onChange={(e) =>
                        setPicked(e.target.checked ? [...picked, s.id] : picked.filter((id) => id !== s.id))
                      }
                    />
                    <span className="truncate">{s.fileName}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        </Card>

        <div className="space-y-4">
          <ol aria-label="Conversation" className="space-y-4">
            {exchanges.map((exchange, i) => (
              <li key={i} className="space-y-2">
                <p className="rounded-lg bg-muted px-4 py-2 text-sm font-medium">{exchange.question}</p>
                <Card className="space-y-3 p-4">
                  {exchange.text ? (
                    <AnswerText projectId={projectId} exchange={exchange} />
                  ) : (
                    !exchange.error && <Spinner />
                  )}
                  {exchange.error && <ErrorAlert>{exchange.error}</ErrorAlert>}
                  {exchange.citations.length > 0 && (
                    <ol aria-label="Citations" className="space-y-1 border-t border-border pt-2 text-xs">
                      {exchange.citations.map((c) => (
                        <li key={c.index}>
                          <Link href={viewerHref(projectId, c)} className="text-link hover:underline">
                            [{c.index}] {c.file_name}
                            {c.page_number !== null && `, page ${c.page_number}`}
                          </Link>{" "}
                          <span className="text-muted-foreground">{c.text_preview}</span>
                        </li>
                      ))}
                    </ol>
                  )}
                  {exchange.response && (
                    <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                      <Badge tone="info">{exchange.response.model}</Badge>
                      {exchange.response.elapsed_s?.toFixed(2)} s · {exchange.response.usage?.tokens_in ?? 0} tokens in,{" "}
                      {exchange.response.usage?.tokens_out ?? 0} out
                    </p>
                  )}
                </Card>
              </li>
            ))}
          </ol>
          {exchanges.length === 0 && (
            <Card>
              <EmptyState title="Ask your documents a question">
                Answers cite their sources; a citation opens the element viewer at its page.
              </EmptyState>
            </Card>
          )}

          <form aria-label="Ask" noValidate onSubmit={onSubmit} className="space-y-3">
            <Field label={exchanges.length ? "Follow-up question" : "Question"}>
              {(p) => (
                <Textarea
                  {...p}
                  rows={3}
                  value={question}
                  disabled={!canAsk}
                  onChange={(e) => setQuestion(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" && !e.shiftKey) void onSubmit(e);
                  }}
                />
              )}
            </Field>
            <div className="flex flex-wrap items-end gap-3">
              <Field label="Thinking level">
                {(p) => (
                  <Select
                    {...p}
                    value={level}
                    onChange={(e) => setLevel(e.target.value as ThinkingLevel)}
                    className="w-80"
                  >
                    {THINKING_LEVELS.map((l) => (
                      <option key={l} value={l}>
                        {LEVELS[l]}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Button type="submit" disabled={!canAsk || busy || !question.trim()}>
                {busy ? "Answering…" : "Ask"}
              </Button>
              <Button type="button" variant="secondary" onClick={startOver} disabled={!exchanges.length}>
                New conversation
              </Button>
            </div>
          </form>
        </div>
      </div>
    </div>
  );
};
