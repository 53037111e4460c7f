"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Select, Textarea } from "@/components/ui/input";
import { Spinner } from "@/components/ui/states";
import { THINKING_LEVELS, type ThinkingLevel } from "@/server/answers/thinking.schema";
import type { ChatPlaygroundState } from "./use-chat-playground";

const LEVELS: Record<ThinkingLevel, string> = {
  fast: "Fast — one search",
  balanced: "Balanced — reranked search",
  accurate: "Accurate — several searches",
  max: "Max — searches until the context suffices",
};

/** The completed sources to restrict the question to; none picked means all of them. */
export const SourcePicker = ({ state }: { state: ChatPlaygroundState }) => {
  const { sources, picked, setPicked } = state;
  return (
    <Card className="p-4" label="Sources to ask">
      {/* A fieldset is at least as wide as its content unless told otherwise: min-w-0 lets long names truncate. */}
      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-medium">Sources</legend>
        <p className="mb-2 text-xs text-muted-foreground">None picked: every indexed source of the project.</p>
        {sources.isLoading && <Spinner />}
        {sources.data?.items.length === 0 && <p className="text-sm text-muted-foreground">No completed sources yet.</p>}
        <ul className="max-h-80 space-y-1 overflow-y-auto">
          {sources.data?.items.map((s) => (
            <li key={s.id}>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={picked.includes(s.id)}
                  onChange={(e) => setPicked(e.target.checked ? [...picked, s.id] : picked.filter((id) => id !== s.id))}
                />
                {/* min-w-0 lets a long name end in an ellipsis inside the card instead of widening it. */}
                <span className="min-w-0 truncate" title={s.fileName}>
                  {s.fileName}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
    </Card>
  );
};

/** The question (Enter sends, Shift+Enter breaks the line), the thinking level, ask and start over. */
export const AskForm = ({ state, canAsk }: { state: ChatPlaygroundState; canAsk: boolean }) => {
  const { exchanges, busy, level, setLevel, question, setQuestion, onSubmit, startOver } = state;
  return (
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
            <Select {...p} value={level} onChange={(e) => setLevel(e.target.value as ThinkingLevel)} className="w-80">
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
        <Button
          type="button"
          variant="secondary"
          onClick={startOver}
          disabled={!exchanges.length && !state.conversationId}
        >
          New conversation
        </Button>
      </div>
    </form>
  );
};
