"use client";

import { ProjectModelNote } from "@/components/models/model-picker";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { NodeKind } from "@/server/flows/graph.schema";
import { ConfigFieldset, errorOf } from "./fields";
import { numberOrNull, numberValue, useKindForm } from "./use-kind-form";

type TopKConfig = { topK: number | null; max_level?: number };

/** Reranking, Smart RAG, Graph RAG and RAPTOR RAG: how many passages they keep (empty: all), RAPTOR's tree depth. */
export const TopKForm = ({ nodeId, kind, projectId }: { nodeId: string; kind: NodeKind; projectId?: string }) => {
  const { form, def, readOnly } = useKindForm<TopKConfig>(nodeId, kind);
  const { register, formState } = form;
  const e = formState.errors;
  return (
    <ConfigFieldset label={`${def.label} settings`} readOnly={readOnly}>
      {kind === "reranking" && projectId && <ProjectModelNote projectId={projectId} role="rerank" label="Reranker" />}
      <Field label="Top K" error={errorOf(e, "topK")} hint="Empty keeps every passage">
        {(p) => <Input {...p} type="number" min={1} {...register("topK", { setValueAs: numberOrNull })} />}
      </Field>
      {"max_level" in def.fields.shape && (
        <Field label="Tree levels" error={errorOf(e, "max_level")}>
          {(p) => (
            <Input {...p} type="number" min={2} max={8} {...register("max_level", { setValueAs: numberValue })} />
          )}
        </Field>
      )}
    </ConfigFieldset>
  );
};
