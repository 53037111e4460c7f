"use client";

import { useId } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useAddWebSource, type CrawlFields, type WebSourceKind } from "./use-add-web-source";

/**
 * Adds a source fetched from the web: a page (or a crawl from it, or a file URL), a public GitHub repository, or the
 * captions of a YouTube video. Self-contained: it only needs the project id and refreshes the sources list.
 */

type Kind = WebSourceKind;

export const WEB_SOURCE_KINDS: { value: Kind; label: string; placeholder: string }[] = [
  { value: "web", label: "Web page", placeholder: "https://example.com/docs/" },
  { value: "github", label: "GitHub repository", placeholder: "https://github.com/owner/repo" },
  { value: "youtube", label: "YouTube video", placeholder: "https://www.youtube.com/watch?v=…" },
];

const inputClass = "block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm";

export type { WebSourceKind };

/** Whether to follow links from a web page, and how far. */
const CrawlOptions = ({ fields }: { fields: CrawlFields }) => (
  <div className="flex flex-wrap items-center gap-6 text-sm text-slate-700">
    <label className="flex items-center gap-2">
      <input type="checkbox" checked={fields.crawl} onChange={(e) => fields.setCrawl(e.target.checked)} />
      Follow links (crawl the same site and folder)
    </label>
    {fields.crawl && (
      <>
        <label className="flex items-center gap-2">
          Max pages
          <input
            type="number"
            min={1}
            max={500}
            value={fields.maxPages}
            onChange={(e) => fields.setMaxPages(Number(e.target.value))}
            className="h-8 w-20 rounded-md border border-slate-300 px-2"
          />
        </label>
        <label className="flex items-center gap-2">
          Max depth
          <input
            type="number"
            min={0}
            max={5}
            value={fields.maxDepth}
            onChange={(e) => fields.setMaxDepth(Number(e.target.value))}
            className="h-8 w-16 rounded-md border border-slate-300 px-2"
          />
        </label>
      </>
    )}
  </div>
);

export const AddWebSource = ({ projectId, kind }: { projectId: string; kind: Kind }) => {
  const ids = useId();
  const { url, setUrl, language, setLanguage, crawling, added, pending, error, onSubmit } = useAddWebSource(
    projectId,
    kind,
  );

  return (
    <form
      onSubmit={onSubmit}
      className="space-y-4"
      aria-label={`Add a ${WEB_SOURCE_KINDS.find((k) => k.value === kind)!.label}`}
    >
      <div className="flex flex-col gap-4 md:flex-row md:items-end">
        <div className="flex-1">
          <label htmlFor={`${ids}-url`} className="mb-1 block text-sm font-medium text-slate-700">
            URL
          </label>
          <input
            id={`${ids}-url`}
            type="url"
            required
            value={url}
            placeholder={WEB_SOURCE_KINDS.find((k) => k.value === kind)!.placeholder}
            onChange={(event) => setUrl(event.target.value)}
            className={inputClass}
          />
        </div>
        {kind === "youtube" && (
          <div>
            <label htmlFor={`${ids}-language`} className="mb-1 block text-sm font-medium text-slate-700">
              Caption language
            </label>
            <input
              id={`${ids}-language`}
              value={language}
              placeholder="original"
              onChange={(e) => setLanguage(e.target.value)}
              className={`${inputClass} md:w-32`}
            />
          </div>
        )}
        <Button type="submit" disabled={!url.trim() || pending} className="h-10 md:w-28">
          {pending ? "Adding…" : "Add"}
        </Button>
      </div>
      {kind === "web" && <CrawlOptions fields={crawling} />}
      {added && (
        <p role="status" className="text-sm text-muted-foreground">
          Added {added}; fetching and processing have started.
        </p>
      )}
      {error && <ErrorAlert>{error.message}</ErrorAlert>}
    </form>
  );
};
