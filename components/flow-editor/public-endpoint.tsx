"use client";

import { CopyButton } from "@/components/ui/copy-button";

/** The flow's public URL and a curl call of it with the question being typed. */
export const PublicEndpoint = ({
  url,
  query,
  deployedRevision,
}: {
  url: string;
  query: string;
  deployedRevision: number | null;
}) => {
  const curl = [
    `curl -N -H "Authorization: Bearer $QUARRY_TOKEN" -H 'Content-Type: application/json' \\`,
    `  -d '${JSON.stringify({ query: query.trim() || "What changed?", stream: true }).replace(/'/g, "'\\''")}' \\`,
    `  ${url}`,
  ].join("\n");
  return (
    <section aria-label="Public endpoint" className="space-y-2 border-t border-border pt-3">
      <h3 className="text-xs font-semibold text-muted-foreground uppercase">Public endpoint</h3>
      <div className="flex items-center gap-2">
        <code aria-label="Flow URL" className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1 text-xs">
          {url}
        </code>
        <CopyButton text={url} label="Copy URL" />
      </div>
      {deployedRevision === null && <p className="text-xs text-muted-foreground">Answers once the flow is deployed.</p>}
      <pre
        aria-label="Example request"
        // It scrolls sideways: reachable by keyboard.
        tabIndex={0}
        className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 text-[11px] leading-relaxed text-slate-100"
      >
        {curl}
      </pre>
      <CopyButton text={curl} label="Copy curl" />
    </section>
  );
};
