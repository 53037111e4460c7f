"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";

export type WebSourceKind = "web" | "github" | "youtube";

/** The web source form's fields and the connector call its kind asks for; the sources list is read again after. */
export const useAddWebSource = (projectId: string, kind: WebSourceKind) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [crawl, setCrawl] = useState(false);
  const [maxPages, setMaxPages] = useState(20);
  const [maxDepth, setMaxDepth] = useState(1);
  const [language, setLanguage] = useState("");
  const [added, setAdded] = useState<string | null>(null);

  const onAdded = async (what: string) => {
    setAdded(what);
    setUrl("");
    await queryClient.invalidateQueries({ queryKey: trpc.dashboard.sources.list.queryKey({ projectId }) });
  };
  const addUrl = useMutation(trpc.dashboard.connectors.addUrl.mutationOptions());
  const addGithub = useMutation(trpc.dashboard.connectors.addGithub.mutationOptions());
  const addYoutube = useMutation(trpc.dashboard.connectors.addYoutube.mutationOptions());
  const pending = addUrl.isPending || addGithub.isPending || addYoutube.isPending;
  const error = addUrl.error ?? addGithub.error ?? addYoutube.error;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!url.trim() || pending) return;
    setAdded(null);
    for (const m of [addUrl, addGithub, addYoutube]) m.reset();
    const target = url.trim();
    try {
      if (kind === "web")
        await addUrl.mutateAsync({ projectId, url: target, crawl, ...(crawl ? { maxPages, maxDepth } : {}) });
      else if (kind === "github") await addGithub.mutateAsync({ projectId, url: target });
      else await addYoutube.mutateAsync({ projectId, url: target, language: language.trim() || undefined });
      await onAdded(target);
    } catch {
      // Shown from the mutation's error below.
    }
  };

  const crawling = { crawl, setCrawl, maxPages, setMaxPages, maxDepth, setMaxDepth };
  return { url, setUrl, language, setLanguage, crawling, added, pending, error, onSubmit };
};

export type CrawlFields = ReturnType<typeof useAddWebSource>["crawling"];
