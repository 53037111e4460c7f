"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm, type FieldValues, type Resolver } from "react-hook-form";
import type { NodeKind } from "@/server/flows/graph.schema";
import { kindDef, NODE_KIND_DEFS } from "@/server/flows/node-kinds.schema";
import { useEditor } from "../store";

/**
 * A node's config form: react-hook-form checked by the kind's own zod schema from the server's registry (the schema
 * the PATCH route and the deploy check use). Every valid change goes into the draft at once (autosave takes it from
 * there); an invalid one stays in the form with the schema's message beside the field.
 */
export const useKindForm = <T extends FieldValues>(nodeId: string, kind: NodeKind) => {
  const def = NODE_KIND_DEFS[kind];
  const config = useEditor((s) => s.nodes.find((n) => n.id === nodeId)?.data.config);
  const updateNode = useEditor((s) => s.updateNode);
  const readOnly = useEditor((s) => s.readOnly);
  const form = useForm<T>({
    resolver: zodResolver(def.config as never) as unknown as Resolver<T>,
    mode: "onChange",
    defaultValues: { ...def.defaults, ...config } as never,
  });
  const { subscribe, handleSubmit, reset } = form;

  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: () => {
          void handleSubmit((values) => updateNode(nodeId, { config: values as Record<string, unknown> }))();
        },
      }),
    [subscribe, handleSubmit, updateNode, nodeId],
  );

  // Undo, redo or a reload changed the node underneath the form: show what the draft holds now.
  const serialized = JSON.stringify(config);
  useEffect(() => {
    const current = JSON.stringify({ ...def.defaults, ...config });
    if (JSON.stringify(form.getValues()) !== current) reset({ ...def.defaults, ...config } as never);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serialized]);

  return { form, def, readOnly };
};

/** The values of an enum field of the kind, read from its schema. */
export const enumOptions = (kind: NodeKind, field: string): string[] => {
  // Read structurally: an enum, an array of an enum, or an optional enum.
  const schema: { options?: string[]; element?: { options?: string[] }; unwrap?: () => { options?: string[] } } =
    kindDef(kind).fields.shape[field] ?? {};
  return schema.options ?? schema.element?.options ?? schema.unwrap?.().options ?? [];
};

/** Number inputs: empty means null where the schema allows null, else NaN (which the schema refuses). */
export const numberOrNull = (value: unknown) => (value === "" || value === null ? null : Number(value));
export const numberValue = (value: unknown) => (value === "" ? Number.NaN : Number(value));
