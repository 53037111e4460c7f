"use client";

import { useQuery } from "@tanstack/react-query";
import { ModelPicker } from "@/components/models/model-picker";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import type { LlmConfig } from "@/server/flows/node-kinds.schema";
import { ConfigControls, ConfigForm, errorOf } from "./fields";
import { numberValue, useKindForm } from "./use-kind-form";

/** LLM and Response nodes: model, prompt and temperature. */
export const GenerationForm = ({
  nodeId,
  kind,
  projectId,
}: {
  nodeId: string;
  kind: "llm" | "response";
  projectId: string;
}) => {
  const trpc = useTRPC();
  const prompts = useQuery(trpc.dashboard.flows.prompts.queryOptions({ projectId }));
  const { form, def, readOnly } = useKindForm<LlmConfig>(nodeId, kind);
  const { register, formState, watch } = form;
  const e = formState.errors;
  const promptId = watch("promptId");
  const prompt = prompts.data?.find((p) => p.id === promptId);
  return (
    <ConfigForm label={`${def.label} settings`}>
      <ConfigControls readOnly={readOnly}>
        <ModelPicker
          projectId={projectId}
          role="chat"
          label="Model"
          value={watch("model")}
          error={errorOf(e, "model")}
          onChange={(model) => form.setValue("model", model, { shouldDirty: true, shouldValidate: true })}
        />
        <Field label="Prompt" error={errorOf(e, "promptId")}>
          {(p) => (
            <Select {...p} {...register("promptId")}>
              {(prompts.data ?? [{ id: promptId, name: promptId }]).map((pr) => (
                <option key={pr.id} value={pr.id}>
                  {pr.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </ConfigControls>
      {/* Outside the controls: the prompt reads and scrolls by keyboard on a read-only form too. */}
      {prompt && (
        <pre
          aria-label="Prompt text"
          tabIndex={0}
          className="max-h-32 overflow-auto rounded-md bg-muted px-2 py-1.5 text-xs whitespace-pre-wrap text-muted-foreground"
        >
          {prompt.text}
        </pre>
      )}
      <ConfigControls readOnly={readOnly}>
        <Field label="Temperature" error={errorOf(e, "temperature")}>
          {(p) => (
            <Input
              {...p}
              type="number"
              min={0}
              max={2}
              step={0.1}
              {...register("temperature", { setValueAs: numberValue })}
            />
          )}
        </Field>
      </ConfigControls>
    </ConfigForm>
  );
};
