"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select, Textarea } from "@/components/ui/input";
import { Spinner } from "@/components/ui/states";

type Target = "draft" | "deployed";

/** The question and what it runs against; Enter submits, Shift+Enter breaks the line. */
export const RunForm = ({
  query,
  setQuery,
  target,
  setTarget,
  running,
  deployedRevision,
  onRun,
}: {
  query: string;
  setQuery: (query: string) => void;
  target: Target;
  setTarget: (target: Target) => void;
  running: boolean;
  deployedRevision: number | null;
  onRun: (query: string, target: Target) => void;
}) => (
  <form
    aria-label="Run the flow"
    className="space-y-3"
    onSubmit={(e) => {
      e.preventDefault();
      if (query.trim()) onRun(query.trim(), target);
    }}
  >
    <Field label="Run">
      {(p) => (
        <Select {...p} value={target} onChange={(e) => setTarget(e.target.value as Target)}>
          <option value="draft">The draft (simulation)</option>
          <option value="deployed" disabled={deployedRevision === null}>
            {deployedRevision === null ? "Deployed revision (none yet)" : `Deployed revision ${deployedRevision}`}
          </option>
        </Select>
      )}
    </Field>
    <Field label="Question">
      {(p) => (
        <Textarea
          {...p}
          rows={2}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
      )}
    </Field>
    <Button type="submit" disabled={running || !query.trim()}>
      {running && <Spinner />} {running ? "Running…" : "Run"}
    </Button>
  </form>
);
