"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { V2_METHODS } from "@/server/parsing/methods.schema";
import { ALLOWED_EXTENSIONS } from "@/server/sources/sources.schema";
import { uploadSource } from "./upload-source";

// The default first, then the others in the contract's order.
const METHODS = ["fast", ...V2_METHODS.filter((m) => m !== "fast")].map((value) => ({
  value,
  label: value[0]!.toUpperCase() + value.slice(1),
}));

const ACCEPT = ALLOWED_EXTENSIONS.map((ext) => `.${ext}`).join(",");

type UploadState =
  | { kind: "idle" }
  | { kind: "uploading"; fileName: string; progress: number }
  | { kind: "done"; fileName: string }
  | { kind: "failed"; message: string };

export const UploadForm = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [method, setMethod] = useState<string>("fast");
  const [state, setState] = useState<UploadState>({ kind: "idle" });
  const uploading = state.kind === "uploading";

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file || uploading) return;
    setState({ kind: "uploading", fileName: file.name, progress: 0 });
    try {
      await uploadSource({
        projectId,
        file,
        method,
        onProgress: (fraction) =>
          setState((s) => (s.kind === "uploading" ? { ...s, progress: Math.round(fraction * 100) } : s)),
      });
      setState({ kind: "done", fileName: file.name });
      setFile(null);
      if (fileInput.current) fileInput.current.value = "";
      await queryClient.invalidateQueries({ queryKey: trpc.dashboard.sources.queryKey({ projectId }) });
    } catch (error) {
      setState({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Upload a source">
      <div className="flex flex-col gap-4 md:flex-row md:items-end">
        <div className="flex-1">
          <label htmlFor={`${ids}-file`} className="mb-1 block text-sm font-medium text-slate-700">
            File
          </label>
          <input
            ref={fileInput}
            id={`${ids}-file`}
            type="file"
            accept={ACCEPT}
            disabled={uploading}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              if (state.kind !== "uploading") setState({ kind: "idle" });
            }}
            className="block h-10 w-full rounded-md border border-slate-300 bg-white text-sm text-slate-700 file:mr-3 file:h-full file:border-0 file:border-r file:border-slate-300 file:bg-slate-100 file:px-3 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-200"
          />
        </div>
        <div>
          <label htmlFor={`${ids}-method`} className="mb-1 block text-sm font-medium text-slate-700">
            Method
          </label>
          <select
            id={`${ids}-method`}
            value={method}
            disabled={uploading}
            onChange={(event) => setMethod(event.target.value)}
            className="block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm md:w-40"
          >
            {METHODS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={!file || uploading} className="h-10 md:w-28">
          {uploading ? "Uploading…" : "Upload"}
        </Button>
      </div>

      {(state.kind === "uploading" || state.kind === "done") && (
        <div className="space-y-1">
          <ProgressBar label="Upload progress" value={state.kind === "done" ? 100 : state.progress} />
          <p role="status" className="text-sm text-slate-600">
            {state.kind === "done"
              ? `Uploaded ${state.fileName}; processing has started.`
              : state.progress < 100
                ? `Uploading ${state.fileName}… ${state.progress}%`
                : `Uploaded ${state.fileName}; waiting for the server to accept it…`}
          </p>
        </div>
      )}
      {state.kind === "failed" && <ErrorAlert>{state.message}</ErrorAlert>}
    </form>
  );
};
