"use client";

import { useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ALLOWED_EXTENSIONS } from "@/server/sources/sources.schema";
import { BuildOptionsFields } from "./build-options-fields";
import { UploadList } from "./upload-list";
import { useFileUpload } from "./use-file-upload";

const ACCEPT = ALLOWED_EXTENSIONS.map((ext) => `.${ext}`).join(",");

/** Drag and drop (or pick) several files; each uploads with its own progress bar and result. */
export const FileUpload = ({
  projectId,
  indexingOptions,
}: {
  projectId: string;
  indexingOptions: readonly string[];
}) => {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { options, setOptions, items, busy, add: queue, clearFinished } = useFileUpload(projectId);

  const add = (files: FileList | null) => {
    if (!files?.length) return;
    queue(files);
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
      {items.length > 0 && <UploadList items={items} onClear={clearFinished} />}
    </div>
  );
};
