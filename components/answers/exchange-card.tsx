"use client";

import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/states";
import type { Citation } from "@/server/answers/events.schema";
import type { Exchange } from "./use-ask-stream";

const viewerHref = (projectId: string, c: Citation) => {
  const target = new URLSearchParams();
  if (c.pageNumber !== null) target.set("page", String(c.pageNumber));
  if (c.elementId) target.set("element", c.elementId);
  return `/${projectId}/sources/${c.fileId}?${target}`;
};

/** The answer text with each `[N]` a link to its citation's page in the element viewer, opened in a new tab. */
const AnswerText = ({ projectId, exchange }: { projectId: string; exchange: Exchange }) => {
  const parts: ReactNode[] = exchange.text.split(/(\[\d+\])/).map((part, i) => {
    const n = /^\[(\d+)\]$/.exec(part)?.[1];
    const citation = n ? exchange.citations.find((c) => c.index === Number(n)) : undefined;
    if (!citation) return <Fragment key={i}>{part}</Fragment>;
    return (
      <Link
        key={i}
        href={viewerHref(projectId, citation)}
        target="_blank"
        rel="noopener"
        className="font-medium text-link underline"
        title={`${citation.fileName}${citation.pageNumber !== null ? `, page ${citation.pageNumber}` : ""}`}
      >
        {part}
      </Link>
    );
  });
  return <p className="text-sm whitespace-pre-wrap">{parts}</p>;
};

/** One answer: its text as it streams, its citations, and the model and tokens it took. */
export const ExchangeCard = ({ projectId, exchange }: { projectId: string; exchange: Exchange }) => (
  <Card className="space-y-3 p-4">
    {exchange.text ? <AnswerText projectId={projectId} exchange={exchange} /> : !exchange.error && <Spinner />}
    {exchange.error && <ErrorAlert>{exchange.error}</ErrorAlert>}
    {exchange.citations.length > 0 && (
      <ol aria-label="Citations" className="space-y-1 border-t border-border pt-2 text-xs wrap-anywhere">
        {exchange.citations.map((c) => (
          <li key={c.index}>
            <Link href={viewerHref(projectId, c)} target="_blank" rel="noopener" className="text-link underline">
              [{c.index}] {c.fileName}
              {c.pageNumber !== null && `, page ${c.pageNumber}`}
            </Link>{" "}
            <span className="text-muted-foreground">{c.textPreview}</span>
          </li>
        ))}
      </ol>
    )}
    {exchange.response && (
      <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <Badge tone="info">{exchange.response.model}</Badge>
        {exchange.response.elapsedSeconds.toFixed(2)} s · {exchange.response.usage.tokensIn} tokens in,{" "}
        {exchange.response.usage.tokensOut} out
      </p>
    )}
  </Card>
);
