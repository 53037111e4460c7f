"use client";

import { Field } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";
import type { RetrievalConfig } from "@/server/flows/node-kinds.schema";
import { ConfigFieldset, errorOf } from "./fields";
import { enumOptions, numberValue, useKindForm } from "./use-kind-form";

const SEARCH_TYPE_HINTS: Record<string, string> = {
  similarity: "vectors only",
  keyword: "BM25 words",
  hybrid: "vectors and words, fused",
  semantic: "hybrid, then reranked",
};

export const RetrievalForm = ({ nodeId }: { nodeId: string }) => {
  const { form, readOnly } = useKindForm<RetrievalConfig>(nodeId, "retrieval");
  const { register, formState } = form;
  const e = formState.errors;
  return (
    <ConfigFieldset label="Retrieval settings" readOnly={readOnly}>
      <Field label="Search type" error={errorOf(e, "searchType")}>
        {(p) => (
          <Select {...p} {...register("searchType")}>
            {enumOptions("retrieval", "searchType").map((v) => (
              <option key={v} value={v}>
                {v} — {SEARCH_TYPE_HINTS[v] ?? ""}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Top K" error={errorOf(e, "topK")}>
          {(p) => <Input {...p} type="number" min={1} max={100} {...register("topK", { setValueAs: numberValue })} />}
        </Field>
        <Field label="Score threshold" error={errorOf(e, "scoreThreshold")}>
          {(p) => (
            <Input
              {...p}
              type="number"
              min={0}
              max={1}
              step={0.05}
              {...register("scoreThreshold", { setValueAs: numberValue })}
            />
          )}
        </Field>
      </div>
      <Field
        label="Query template"
        error={errorOf(e, "retrievalQuery")}
        hint="Optional. {query} is replaced by the question; empty searches the question as asked."
      >
        {(p) => (
          <Textarea
            {...p}
            rows={2}
            placeholder="{query}"
            {...register("retrievalQuery", { setValueAs: (v: unknown) => (v === "" || v == null ? null : v) })}
          />
        )}
      </Field>
    </ConfigFieldset>
  );
};
