"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/states";

const formatOf = (name: string) => (/\.csv$/i.test(name) ? "csv" : /\.(jsonl|ndjson)$/i.test(name) ? "jsonl" : null);

/** A JSONL or CSV file becomes a test set of the project (the server names a bad row's line). */
export const TestSetImport = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // A new key empties the file input after an import.
  const [inputKey, setInputKey] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const importSet = useMutation(trpc.dashboard.evaluation.importTestSet.mutationOptions());
  const onSubmit = async () => {
    setProblem(null);
    if (!file) return setProblem("Choose a .jsonl or .csv file");
    const format = formatOf(file.name);
    if (!format) return setProblem("The file must end in .jsonl or .csv");
    try {
      await importSet.mutateAsync({ projectId, name: name.trim(), format, content: await file.text() });
      setFile(null);
      setName("");
      setInputKey((k) => k + 1);
      await queryClient.invalidateQueries({ queryKey: trpc.dashboard.evaluation.testSets.queryKey({ projectId }) });
    } catch {
      // Shown from the mutation's state.
    }
  };
  return (
    <form
      aria-label="Import a test set"
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      <Field
        label="Test set file"
        hint="JSONL or CSV: question, expected_answer, relevant_file_ids or relevant_files, relevant_passages"
      >
        {(p) => (
          <Input
            {...p}
            key={inputKey}
            type="file"
            accept=".jsonl,.ndjson,.csv"
            onChange={(e) => {
              const chosen = e.target.files?.[0] ?? null;
              setFile(chosen);
              if (chosen && !name) setName(chosen.name.replace(/\.[^.]+$/, ""));
            }}
          />
        )}
      </Field>
      <Field label="Test set name">
        {(p) => <Input {...p} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Button type="submit" size="sm" disabled={importSet.isPending || !file || !name.trim()}>
        {importSet.isPending && <Spinner className="size-3" />} Import
      </Button>
      {(problem || importSet.isError) && <ErrorAlert>{problem ?? importSet.error?.message}</ErrorAlert>}
    </form>
  );
};
