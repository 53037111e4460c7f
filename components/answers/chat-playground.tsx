"use client";

import { useProject } from "@/components/sources/use-project";
import { Notice } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { EmptyState, Spinner } from "@/components/ui/states";
import { AskForm, SourcePicker } from "./chat-controls";
import { ConversationList } from "./conversation-list";
import { ExchangeCard } from "./exchange-card";
import { useChatPlayground } from "./use-chat-playground";

/**
 * Pick sources, ask, watch the answer stream, follow a citation to the element viewer (in a new tab, so the chat
 * stays); reopen, rename or delete earlier conversations, or start a new one.
 */
export const ChatPlayground = ({ projectId }: { projectId: string }) => {
  const project = useProject(projectId);
  const canAsk = project.can("member");
  const state = useChatPlayground(projectId);
  const { exchanges } = state;

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Chat</h1>
      {!canAsk && project.data && (
        <Notice>Asking spends model tokens, so it needs the member role; you are {project.data.role}.</Notice>
      )}
      <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
        <div className="min-w-0 space-y-6">
          <ConversationList projectId={projectId} state={state} canEdit={canAsk} />
          <SourcePicker state={state} />
        </div>

        <div className="min-w-0 space-y-4">
          {state.loadingTurns && exchanges.length === 0 && <Spinner />}
          <ol aria-label="Conversation" className="space-y-4">
            {exchanges.map((exchange, i) => (
              <li key={i} className="space-y-2">
                <p className="rounded-lg bg-muted px-4 py-2 text-sm font-medium">{exchange.question}</p>
                <ExchangeCard projectId={projectId} exchange={exchange} />
              </li>
            ))}
          </ol>
          {exchanges.length === 0 && !state.loadingTurns && (
            <Card>
              <EmptyState title="Ask your documents a question">
                Answers cite their sources; a citation opens the element viewer at its page in a new tab.
              </EmptyState>
            </Card>
          )}

          <AskForm state={state} canAsk={canAsk} />
        </div>
      </div>
    </div>
  );
};
