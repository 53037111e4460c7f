"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { TableScroll } from "@/components/ui/table-scroll";

/**
 * What a URL, GitHub or YouTube source's latest build fetched: for a crawl, every URL considered with its fate and
 * the reason (updated while the crawl runs); for a repository, its files and what was skipped; for a video, its
 * title, channel and captions. Renders nothing for uploads.
 */

type Fate = { url: string; status: string; reason: string | null; page_number?: number };

const POLL_MS = 1_500;
const FATE_TONE: Record<string, BadgeTone> = { ingested: "success", skipped: "warning", queued: "neutral" };

const Facts = ({ items }: { items: [string, unknown][] }) => (
  <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 px-5 py-4 text-sm">
    {items
      .filter(([, v]) => v !== null && v !== undefined && v !== "")
      .map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="break-all text-foreground">{typeof v === "object" ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
  </dl>
);

/** A crawl: its progress, robots.txt, sitemap and scope, then every URL considered with its fate. */
const CrawledPages = ({ acquired }: { acquired: Record<string, unknown> }) => {
  const pages = (acquired.pages as Fate[] | undefined) ?? null;
  const progress = acquired.progress as Record<string, number> | undefined;
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-5 py-4">
        <h2 className="text-base font-semibold">Crawled pages</h2>
        {progress && (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {progress.considered} considered · {progress.fetched} fetched · {progress.ingested} ingested ·{" "}
            {progress.skipped} skipped
            {progress.queued ? ` · ${progress.queued} queued` : ""}
          </p>
        )}
      </div>
      <Facts
        items={[
          ["Robots.txt", acquired.robots],
          ["Sitemap", acquired.sitemap],
          ["Scope", acquired.scope],
        ]}
      />
      {!pages || pages.length === 0 ? (
        <p className="px-5 pb-5 text-sm text-muted-foreground">Nothing fetched yet.</p>
      ) : (
        <TableScroll label="Crawled pages table">
          <table aria-label="Crawled pages" className="w-full text-left text-sm">
            <thead className="border-y border-border bg-muted text-xs uppercase text-muted-foreground">
              <tr>
                <th className="px-5 py-2 font-medium">URL</th>
                <th className="px-3 py-2 font-medium">Fate</th>
                <th className="px-3 py-2 font-medium">Reason</th>
                <th className="px-5 py-2 font-medium">Page</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {pages.map((p) => (
                <tr key={p.url}>
                  <td className="max-w-md break-all px-5 py-2 text-foreground">{p.url}</td>
                  <td className="px-3 py-2">
                    <Badge tone={FATE_TONE[p.status] ?? "neutral"}>{p.status}</Badge>
                  </td>
                  <td className="px-3 py-2 text-muted-foreground">{p.reason ?? ""}</td>
                  <td className="px-5 py-2 text-muted-foreground">{p.page_number ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  );
};

export const CrawlPages = ({ projectId, sourceId }: { projectId: string; sourceId: string }) => {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.dashboard.connectors.acquired.queryOptions(
      { projectId, sourceId },
      {
        refetchInterval: (q) =>
          q.state.data && (q.state.data.status === "New" || q.state.data.status === "Processing") ? POLL_MS : false,
      },
    ),
  );
  const data = query.data;
  if (!data) return null;
  const acquired = data.acquired ?? {};

  if (data.fileSource === "url") return <CrawledPages acquired={acquired} />;

  const facts: [string, unknown][] =
    data.fileSource === "github"
      ? [
          ["Repository", acquired.repository],
          ["Ref", acquired.ref],
          ["Commit", acquired.commit],
          ["Sub-path", acquired.sub_path],
          ["Files read", acquired.files],
          ["Skipped", acquired.skipped],
          ["Stopped early", acquired.truncated],
        ]
      : [
          ["Title", acquired.title],
          ["Channel", acquired.channel],
          ["Caption language", acquired.language],
          ["Captions", acquired.captions],
          ["Read through", acquired.strategy],
          ["Note", acquired.note],
          [
            "Attempts",
            (acquired.attempts as { strategy: string; outcome: string }[] | undefined)
              ?.map((a) => `${a.strategy}: ${a.outcome}`)
              .join("; "),
          ],
        ];
  return (
    <Card>
      <h2 className="border-b border-slate-200 px-5 py-4 text-base font-semibold">
        {data.fileSource === "github" ? "Repository" : "Video"}
      </h2>
      {data.acquired ? (
        <Facts items={facts} />
      ) : (
        <p className="px-5 py-4 text-sm text-muted-foreground">Nothing fetched yet.</p>
      )}
    </Card>
  );
};
