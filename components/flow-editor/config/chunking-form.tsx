"use client";

import { ProjectModelNote } from "@/components/models/model-picker";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import type { ChunkingConfig } from "@/server/flows/node-kinds.schema";
import { ConfigFieldset, errorOf, formLevelError } from "./fields";
import { enumOptions, numberValue, useKindForm } from "./use-kind-form";

export const ChunkingForm = ({ nodeId, projectId }: { nodeId: string; projectId: string }) => {
  const { form, readOnly } = useKindForm<ChunkingConfig>(nodeId, "chunking");
  const { register, formState } = form;
  const e = formState.errors;
  const crossField = formLevelError(e);
  return (
    <ConfigFieldset label="Chunking settings" readOnly={readOnly}>
      <Field label="Splitter" error={errorOf(e, "chunkingSplitter")}>
        {(p) => (
          <Select {...p} {...register("chunkingSplitter")}>
            {enumOptions("chunking", "chunkingSplitter").map((v) => (
              <option key={v}>{v}</option>
            ))}
          </Select>
        )}
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Chunk size" error={errorOf(e, "chunkSize")}>
          {(p) => <Input {...p} type="number" min={1} {...register("chunkSize", { setValueAs: numberValue })} />}
        </Field>
        <Field label="Overlap" error={errorOf(e, "chunkOverlap")}>
          {(p) => <Input {...p} type="number" min={0} {...register("chunkOverlap", { setValueAs: numberValue })} />}
        </Field>
      </div>
      {crossField && (
        <p role="alert" className="text-xs text-destructive">
          {crossField}
        </p>
      )}
      <div className="grid grid-cols-2 gap-3">
        <Field label="Separator" error={errorOf(e, "chunkSeparator")} hint="Escapes like \n are literal here">
          {(p) => <Input {...p} {...register("chunkSeparator")} />}
        </Field>
        <Field label="Split level" error={errorOf(e, "splitLevel")}>
          {(p) => (
            <Input {...p} type="number" min={0} max={10} {...register("splitLevel", { setValueAs: numberValue })} />
          )}
        </Field>
      </div>
      {/* The chunks are embedded, and searched, with the project's embedder: one model per project's vectors. */}
      <ProjectModelNote projectId={projectId} role="embedding" label="Embedding model" />
      <details className="rounded-md border border-border px-3 py-2 text-sm">
        <summary className="cursor-pointer font-medium">Element types to leave out</summary>
        <div className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1">
          {enumOptions("chunking", "elementsToRemove").map((v) => (
            <label key={v} className="flex items-center gap-1.5 text-xs">
              <input type="checkbox" value={v} {...register("elementsToRemove")} />
              {v}
            </label>
          ))}
        </div>
      </details>
    </ConfigFieldset>
  );
};
