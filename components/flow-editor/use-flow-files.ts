"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/components/providers/trpc-provider";

/**
 * The flows list's file actions: a flow from a template or an imported file (each opens on the canvas), a duplicate
 * (it joins the list), and an export downloaded as `<name>.json`.
 */
export const useFlowFiles = (projectId: string) => {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const refreshList = () =>
    queryClient.invalidateQueries({ queryKey: trpc.dashboard.flows.list.queryKey({ projectId }) });
  const open = async ({ name }: { name: string }) => {
    await refreshList();
    router.push(`/${projectId}/flows/${name}`);
  };
  const fromTemplate = useMutation(trpc.dashboard.flowFiles.fromTemplate.mutationOptions({ onSuccess: open }));
  const importFile = useMutation(trpc.dashboard.flowFiles.import.mutationOptions({ onSuccess: open }));
  const duplicate = useMutation(trpc.dashboard.flowFiles.duplicate.mutationOptions({ onSuccess: refreshList }));
  const download = async (name: string) => {
    const file = await queryClient.fetchQuery(trpc.dashboard.flowFiles.export.queryOptions({ projectId, name }));
    const url = URL.createObjectURL(new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: "application/json" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: `${name}.json` });
    link.click();
    URL.revokeObjectURL(url);
  };
  return { fromTemplate, importFile, duplicate, download };
};

export type FlowFiles = ReturnType<typeof useFlowFiles>;
