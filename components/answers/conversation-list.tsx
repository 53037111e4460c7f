"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { ChatPlaygroundState } from "./use-chat-playground";

type Row = { conversationId: string; title: string; turnCount: number };

/** Rename and delete, with the list read again and a toast when either is done. */
const useConversationActions = (projectId: string, state: ChatPlaygroundState) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.dashboard.answers.conversations.queryKey({ projectId }) });
  const rename = useMutation(
    trpc.dashboard.answers.renameConversation.mutationOptions({
      onSuccess: async () => {
        await refresh();
        toast("Conversation renamed");
      },
    }),
  );
  const remove = useMutation(
    trpc.dashboard.answers.deleteConversation.mutationOptions({
      onSuccess: async (_, input) => {
        if (input.conversationId === state.conversationId) state.openConversation(null);
        await refresh();
        toast("Conversation deleted");
      },
    }),
  );
  return { rename, remove };
};

const RenameForm = ({ row, onSave, onCancel }: { row: Row; onSave: (t: string) => void; onCancel: () => void }) => {
  const [title, setTitle] = useState(row.title);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim()) onSave(title.trim());
  };
  return (
    <form onSubmit={submit} className="flex items-center gap-1 py-1" aria-label="Rename conversation">
      <Input
        aria-label="Conversation name"
        value={title}
        maxLength={120}
        autoFocus
        onChange={(e) => setTitle(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && onCancel()}
        className="h-8"
      />
      <Button type="submit" size="sm" disabled={!title.trim()}>
        Save
      </Button>
    </form>
  );
};

/** The project's past conversations: open one to continue it; members rename and delete. */
export const ConversationList = ({
  projectId,
  state,
  canEdit,
}: {
  projectId: string;
  state: ChatPlaygroundState;
  canEdit: boolean;
}) => {
  const trpc = useTRPC();
  const list = useQuery(trpc.dashboard.answers.conversations.queryOptions({ projectId }));
  const { rename, remove } = useConversationActions(projectId, state);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const error = list.error ?? rename.error ?? remove.error;

  return (
    <Card className="p-4" label="Conversations">
      <h2 className="mb-2 text-sm font-medium">Conversations</h2>
      {list.isPending && <Spinner />}
      {error && <ErrorAlert>{error.message}</ErrorAlert>}
      {list.data?.length === 0 && <p className="text-sm text-muted-foreground">No conversations yet.</p>}
      <ul className="max-h-72 space-y-0.5 overflow-y-auto">
        {list.data?.map((row) => (
          <li key={row.conversationId} className="group flex min-w-0 items-center gap-1">
            {editing === row.conversationId ? (
              <RenameForm
                row={row}
                onCancel={() => setEditing(null)}
                onSave={(title) => {
                  setEditing(null);
                  rename.mutate({ projectId, conversationId: row.conversationId, title });
                }}
              />
            ) : (
              <>
                <button
                  type="button"
                  aria-current={row.conversationId === state.conversationId ? "page" : undefined}
                  onClick={() => state.openConversation(row.conversationId)}
                  title={row.title}
                  className={cn(
                    "min-w-0 flex-1 truncate rounded px-2 py-1 text-left text-sm hover:bg-muted",
                    row.conversationId === state.conversationId && "bg-accent font-medium",
                  )}
                >
                  {row.title}
                </button>
                {canEdit && (
                  <>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Rename ${row.title}`}
                      onClick={() => setEditing(row.conversationId)}
                    >
                      Rename
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Delete ${row.title}`}
                      onClick={() => setDeleting(row)}
                    >
                      Delete
                    </Button>
                  </>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete conversation"
        confirmLabel="Delete conversation"
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate({ projectId, conversationId: deleting.conversationId });
          setDeleting(null);
        }}
      >
        Delete “{deleting?.title}” and its {deleting?.turnCount} {deleting?.turnCount === 1 ? "answer" : "answers"}?
        This cannot be undone.
      </ConfirmDialog>
    </Card>
  );
};
