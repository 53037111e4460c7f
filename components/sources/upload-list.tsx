"use client";

import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { UploadItem } from "./use-file-upload";

/**
 * Uploads still running, each with its progress, and failed ones with the reason; the finished ones fold into one
 * line, so a batch of uploads does not push the sources table down the page. "Clear" drops what has finished.
 */
export const UploadList = ({ items, onClear }: { items: UploadItem[]; onClear: () => void }) => {
  const done = items.filter((i) => i.state === "done");
  const open = items.filter((i) => i.state !== "done");
  return (
    <ul aria-label="Uploads" className="space-y-2">
      {done.length > 0 && (
        <li className="flex items-center justify-between gap-3 rounded-md border border-border px-3 py-2">
          <p
            role="status"
            className="min-w-0 truncate text-sm text-muted-foreground"
            title={done.map((i) => i.file.name).join(", ")}
          >
            {done.length === 1 ? `${done[0]!.file.name} uploaded` : `${done.length} files uploaded`}; processing has
            started.
          </p>
          {open.every((i) => i.state === "failed") && (
            <Button variant="ghost" size="sm" onClick={onClear}>
              Clear
            </Button>
          )}
        </li>
      )}
      {open.map((item) => (
        <li key={item.id} className="rounded-md border border-border px-3 py-2">
          <div className="flex items-center justify-between gap-3 text-sm">
            <span className="truncate font-medium">{item.file.name}</span>
            <span className="text-xs text-muted-foreground">
              {item.state === "queued" ? "Waiting" : item.state === "uploading" ? `${item.progress}%` : null}
            </span>
          </div>
          {item.state === "uploading" && (
            <ProgressBar className="mt-1.5" label={`Upload of ${item.file.name}`} value={item.progress} />
          )}
          {item.state === "failed" && (
            <div className="mt-1 flex items-center justify-between gap-3">
              <p role="alert" className="text-xs text-destructive">
                {item.message}
              </p>
              {done.length === 0 && open.every((i) => i.state === "failed") && (
                <Button variant="ghost" size="sm" onClick={onClear}>
                  Clear
                </Button>
              )}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
};
