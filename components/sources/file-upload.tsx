"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type DragEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ProgressBar } from "@/components/ui/progress-bar";
import { ALLOWED_EXTENSIONS } from "@/server/sources/sources.schema";
import { BuildOptionsFields, DEFAULT_BUILD_OPTIONS, type BuildOptions } from "./build-options-fields";
import { uploadSource } from "./upload-source";

const ACCEPT = ALLOWED_EXTENSIONS.map((ext) => `.${ext}`).join(",");
/** Two uploads at a time: enough to keep the link busy without starving the page's other requests. */
const PARALLEL = 2;
const MAX_FINISHED_LISTED = 20;

type Item = {
  id: number;
  file: File;
  state: "queued" | "uploading" | "done" | "failed";
  progress: number;
  message?: string;
};

/** Drag and drop (or pick) several files; each uploads with its own progress bar and result. */
export const FileUpload = ({
  projectId,
  indexingOptions,
}: {
  projectId: string;
  indexingOptions: readonly string[];
}) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);
  const [options, setOptions] = useState<BuildOptions>(DEFAULT_BUILD_OPTIONS);
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const busy = items.some((i) => i.state === "uploading" || i.state === "queued");

  const update = (id: number, patch: Partial<Item>) =>
    setItems((all) => all.map((i) => (i.id === id ? { ...i, ...patch } : i)));

  const run = async (queue: Item[], chosen: BuildOptions) => {
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
    if (input.current) input.current.value = "";
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer.files);
  };

  return (
    <div className="space-y-4">
      <BuildOptionsFields value={options} onChange={setOptions} indexingOptions={indexingOptions} disabled={busy} />
      <div
        role="group"
        aria-label="Drop files here"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-6 py-8 text-center",
          dragging ? "border-primary bg-accent" : "border-input",
        )}
      >
        <p className="text-sm font-medium">Drop files here</p>
        <p className="text-xs text-muted-foreground">PDF, Office, images, text, audio and video; up to 100 MB each</p>
        <input
          ref={input}
          id={`${projectId}-files`}
          type="file"
          multiple
          accept={ACCEPT}
          aria-label="Files"
          className="sr-only"
          onChange={(e) => add(e.target.files)}
        />
        <Button variant="secondary" onClick={() => input.current?.click()}>
          Choose files
        </Button>
      </div>
      {items.length > 0 && (
        <ul aria-label="Uploads" className="space-y-2">
          {items.map((item) => (
            <li key={item.id} className="rounded-md border border-border px-3 py-2">
              <div className="flex items-center justify-between gap-3 text-sm">
                <span className="truncate font-medium">{item.file.name}</span>
                <span className="text-xs text-muted-foreground">
                  {item.state === "queued" ? "Waiting" : item.state === "uploading" ? `${item.progress}%` : null}
                </span>
              </div>
              {(item.state === "uploading" || item.state === "done") && (
                <ProgressBar className="mt-1.5" label={`Upload of ${item.file.name}`} value={item.progress} />
              )}
              {item.message && (
                <p
                  role={item.state === "failed" ? "alert" : "status"}
                  className={cn("mt-1 text-xs", item.state === "failed" ? "text-destructive" : "text-muted-foreground")}
                >
                  {item.message}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
