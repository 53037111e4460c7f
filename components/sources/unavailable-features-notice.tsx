"use client";

import { useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/alert";
import type { UnavailableFeature } from "@/server/parsing/tool-features";

const STORAGE_KEY = "quarry.unavailable-features.dismissed";
/** While the page renders on the server (and hydrates), the browser's choice is unknown: stay hidden, no flash. */
const UNKNOWN = "unknown";

const listeners = new Set<() => void>();
const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  window.addEventListener("storage", onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onChange);
  };
};
const dismiss = (signature: string) => {
  localStorage.setItem(STORAGE_KEY, signature);
  for (const onChange of listeners) onChange();
};

/** What a feature lets the server do, as a clause after "This server cannot …". */
const whatItDoes = (f: UnavailableFeature) =>
  ({
    "legacy-office-documents": `read ${f.formats.map((ext) => `.${ext}`).join(", ")} files`,
    "office-page-images": "show page images of Office files",
    "audio-video": "read audio and video",
  })[f.feature] ?? f.feature;

/** "a", "a or b", "a, b or c" */
const either = (items: string[]) =>
  items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;

/**
 * What this server cannot do for lack of a system tool (GET /config's `unavailable_features`), said once above the
 * sources: dismissed, it stays hidden in this browser until the list of missing tools changes. Admins read the tools
 * and the command that installs them; everyone else what it means for them (issue 30: no operator text for users).
 */
export const UnavailableFeaturesNotice = ({
  features,
  forAdmin,
}: {
  features: UnavailableFeature[];
  forAdmin: boolean;
}) => {
  const signature = features.map((f) => `${f.feature}:${f.tool}`).join(",");
  const dismissed = useSyncExternalStore(
    subscribe,
    () => localStorage.getItem(STORAGE_KEY),
    () => UNKNOWN,
  );
  if (features.length === 0 || dismissed === signature || dismissed === UNKNOWN) return null;
  const tools = [...new Map(features.map((f) => [f.tool, f])).values()];
  return (
    <Notice className="flex items-start justify-between gap-4">
      {forAdmin ? (
        <div className="space-y-1">
          <p>
            This server cannot {either(features.map(whatItDoes))}: it lacks {tools.map((f) => f.tool).join(" and ")}. An
            admin can install {tools.length > 1 ? "them" : "it"} with:
          </p>
          <p className="font-mono text-xs">apt-get install {[...new Set(features.map((f) => f.package))].join(" ")}</p>
        </div>
      ) : (
        <p>
          This server cannot {either(features.map(whatItDoes))}. Such sources fail to build here until whoever runs the
          server installs what they need.
        </p>
      )}
      <Button variant="ghost" size="sm" onClick={() => dismiss(signature)}>
        Dismiss
      </Button>
    </Notice>
  );
};
