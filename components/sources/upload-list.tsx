"use client";

import { cn } from "@/components/ui/cn";
import { ProgressBar } from "@/components/ui/progress-bar";
import type { UploadItem } from "./use-file-upload";

/** Each upload with its progress and outcome. */
export const UploadList = ({ items }: { items: UploadItem[] }) => (
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
);
