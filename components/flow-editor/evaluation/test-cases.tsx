"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { Loading } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";

type CaseFields = { question: string; expectedAnswer: string };

/** After any change: the set's cases and the case counts are read again, and a toast says what happened. */
const useRefresh = (projectId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  return async (message: string) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.dashboard.evaluation.testCases.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.dashboard.evaluation.testSets.queryKey({ projectId }) }),
    ]);
    toast(message);
  };
};

/** A question and its expected answer, for a new case or an edit. */
const CaseForm = ({
  label,
  initial,
  pending,
  onSave,
  onCancel,
}: {
  label: string;
  initial: CaseFields;
  pending: boolean;
  onSave: (fields: CaseFields) => Promise<unknown>;
  onCancel?: () => void;
}) => {
  const [fields, setFields] = useState(initial);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!fields.question.trim()) return;
    await onSave(fields);
    if (!onCancel) setFields({ question: "", expectedAnswer: "" });
  };
  return (
    <form aria-label={label} onSubmit={submit} className="space-y-2 rounded-md border border-border p-2">
      <Field label="Question">
        {(p) => (
          <Input {...p} value={fields.question} onChange={(e) => setFields({ ...fields, question: e.target.value })} />
        )}
      </Field>
      <Field label="Expected answer" hint="Optional: metrics that compare with it need it">
        {(p) => (
          <Textarea
            {...p}
            rows={2}
            value={fields.expectedAnswer}
            onChange={(e) => setFields({ ...fields, expectedAnswer: e.target.value })}
          />
        )}
      </Field>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending || !fields.question.trim()}>
          {label}
        </Button>
        {onCancel && (
          <Button type="button" size="sm" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
};

/** A test set's cases, each editable, and a form to add one (editors only). */
export const TestCases = ({
  projectId,
  testSet,
  canEdit,
}: {
  projectId: string;
  testSet: string;
  canEdit: boolean;
}) => {
  const trpc = useTRPC();
  const refresh = useRefresh(projectId);
  const list = useQuery(trpc.dashboard.evaluation.testCases.queryOptions({ projectId, testSet, pageSize: 100 }));
  const add = useMutation(
    trpc.dashboard.evaluation.addTestCase.mutationOptions({ onSuccess: () => refresh("Test case added") }),
  );
  const update = useMutation(
    trpc.dashboard.evaluation.updateTestCase.mutationOptions({ onSuccess: () => refresh("Test case saved") }),
  );
  const [editing, setEditing] = useState<string | null>(null);
  if (list.isPending) return <Loading>Loading cases…</Loading>;
  if (list.isError) return <ErrorAlert>{list.error.message}</ErrorAlert>;
  return (
    <div className="space-y-2 px-3 pb-3">
      <ol aria-label={`Cases of ${list.data.testSet.name}`} className="space-y-1 text-xs">
        {list.data.cases.map((c) =>
          editing === c.id ? (
            <li key={c.id}>
              <CaseForm
                label="Save case"
                initial={{ question: c.question, expectedAnswer: c.expectedAnswer }}
                pending={update.isPending}
                onCancel={() => setEditing(null)}
                onSave={async (fields) => {
                  await update.mutateAsync({ projectId, caseId: c.id, ...fields });
                  setEditing(null);
                }}
              />
            </li>
          ) : (
            <li key={c.id} className="flex items-start gap-2">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words">{c.question}</p>
                {c.expectedAnswer && <p className="break-words text-muted-foreground">{c.expectedAnswer}</p>}
              </div>
              {canEdit && (
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Edit case ${c.position + 1}`}
                  onClick={() => setEditing(c.id)}
                >
                  Edit
                </Button>
              )}
            </li>
          ),
        )}
      </ol>
      {list.data.total > list.data.cases.length && (
        <p className="text-xs text-muted-foreground">
          The first {list.data.cases.length} of {list.data.total} cases.
        </p>
      )}
      {(add.error ?? update.error) && <ErrorAlert>{(add.error ?? update.error)!.message}</ErrorAlert>}
      {canEdit && (
        <CaseForm
          label="Add case"
          initial={{ question: "", expectedAnswer: "" }}
          pending={add.isPending}
          onSave={(fields) => add.mutateAsync({ projectId, testSet, ...fields }).catch(() => undefined)}
        />
      )}
    </div>
  );
};

/** An empty test set to fill case by case. */
export const NewTestSet = ({ projectId, onCreated }: { projectId: string; onCreated: (id: string) => void }) => {
  const trpc = useTRPC();
  const refresh = useRefresh(projectId);
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.dashboard.evaluation.createTestSet.mutationOptions({
      onSuccess: async (set) => {
        setName("");
        onCreated(set.id);
        await refresh(`Test set ${set.name} created`);
      },
    }),
  );
  return (
    <form
      aria-label="Create a test set"
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) create.mutate({ projectId, name });
      }}
    >
      <div className="min-w-0 flex-1">
        <Field label="New test set" error={create.error?.message}>
          {(p) => <Input {...p} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />}
        </Field>
      </div>
      <Button type="submit" size="sm" variant="secondary" disabled={!name.trim() || create.isPending}>
        Create
      </Button>
    </form>
  );
};
