"use client";

import { EVENT_LABELS, WEBHOOK_EVENTS, type WebhookEventType } from "@/server/webhooks/webhooks.schema";

/** One checkbox per event type, with its name as receivers see it and what it means. */
export const EventCheckboxes = ({
  legend,
  selected,
  onToggle,
  error,
  disabled,
}: {
  legend: string;
  selected: readonly string[];
  onToggle: (type: WebhookEventType, on: boolean) => void;
  error?: string;
  disabled?: boolean;
}) => (
  <fieldset disabled={disabled}>
    <legend className="mb-2 text-sm font-medium">{legend}</legend>
    <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
      {WEBHOOK_EVENTS.map((type) => (
        <label key={type} className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            checked={selected.includes(type)}
            onChange={(e) => onToggle(type, e.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-[var(--primary)]"
          />
          <span>
            <code className="font-mono text-xs font-medium">{type}</code>
            <span className="block text-xs text-muted-foreground">{EVENT_LABELS[type]}</span>
          </span>
        </label>
      ))}
    </div>
    {error && <p className="mt-1 text-xs text-destructive">{error}</p>}
  </fieldset>
);
