"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { DEFAULT_BUILD_OPTIONS, type BuildOptions } from "./build-options-fields";
import { uploadSource } from "./upload-source";

/** Two uploads at a time: enough to keep the link busy without starving the page's other requests. */
const PARALLEL = 2;
const MAX_FINISHED_LISTED = 20;

export type UploadItem = {
  id: number;
  file: File;
  state: "queued" | "uploading" | "done" | "failed";
  progress: number;
  message?: string;
};

/** The uploads in flight and done, and the build options they are made with; `add` queues files. */
export const useFileUpload = (projectId: string) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const nextId = useRef(1);
  const [options, setOptions] = useState<BuildOptions>(DEFAULT_BUILD_OPTIONS);
  const [items, setItems] = useState<UploadItem[]>([]);
  const busy = items.some((i) => i.state === "uploading" || i.state === "queued");

  const update = (id: number, patch: Partial<UploadItem>) =>
    setItems((all) => all.map((i) => (i.id === id ? { ...i, ...patch } : i)));

  const run = async (queue: UploadItem[], chosen: BuildOptions) => {
    const worker = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const id = item.id;
        update(id, { state: "uploading" });
        try {
          await uploadSource({
            projectId,
            file: item.file,
            options: chosen,
            onProgress: (fraction) => update(id, { progress: Math.round(fraction * 100) }),
          });
          update(id, { state: "done", progress: 100, message: "Uploaded; processing has started." });
        } catch (error) {
          update(id, { state: "failed", message: error instanceof Error ? error.message : String(error) });
        }
        await queryClient.invalidateQueries({ queryKey: trpc.dashboard.sources.list.queryKey({ projectId }) });
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  };

  const add = (files: FileList | null) => {
    if (!files?.length) return;
    const added = Array.from(files).map((file) => ({
      id: nextId.current++,
      file,
      state: "queued" as const,
      progress: 0,
    }));
    // Finished uploads stay listed (a batch added right after another must not hide the first one's outcome); only
    // the most recent ones, so the list stays short. Uploads still running are always shown.
    setItems((all) => {
      const next = [...all, ...added];
      const finished = next.filter((i) => i.state === "done");
      const hidden = new Set(finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_LISTED)).map((i) => i.id));
      return next.filter((i) => !hidden.has(i.id));
    });
    void run([...added], options);
  };

  /** Drops finished uploads (done or failed) from the list; running ones stay. */
  const clearFinished = () => setItems((all) => all.filter((i) => i.state === "queued" || i.state === "uploading"));

  return { options, setOptions, items, busy, add, clearFinished };
};
