"use client";

import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { V2_METHODS } from "@/server/parsing/methods.schema";
import { ENRICHMENT_OPTIONS } from "@/server/sources/sources.schema";

export type BuildOptions = { method: string; enrichment: string; indexing: string };
/** What an ingest does when nothing is chosen (contract §3: `auto` reads text pages as fast and OCRs only scans). */
export const DEFAULT_BUILD_OPTIONS: BuildOptions = { method: "auto", enrichment: "full", indexing: "full" };

const METHOD_HINTS: Record<string, string> = {
  fast: "text layer, no OCR",
  balanced: "OCR and structure",
  accurate: "OCR, structure and tables",
  agentic: "vision model",
  auto: "PDFs page by page",
};

/** Method, enrichment and indexing, as ingest and reprocess take them. */
export const BuildOptionsFields = ({
  value,
  onChange,
  indexingOptions,
  disabled,
}: {
  value: BuildOptions;
  onChange: (value: BuildOptions) => void;
  indexingOptions: readonly string[];
  disabled?: boolean;
}) => (
  // Three columns only when the form itself is wide (a container query): in the reprocess dialog a window-wide rule
  // squeezed each select until its label read "Auto (PD".
  <div className="@container">
    <div className="grid grid-cols-1 gap-3 @2xl:grid-cols-3">
      <Field label="Method">
        {(p) => (
          <Select
            {...p}
            value={value.method}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, method: e.target.value })}
          >
            {["auto", ...V2_METHODS.filter((m) => m !== "auto")].map((m) => (
              <option key={m} value={m}>
                {m[0]!.toUpperCase() + m.slice(1)} ({METHOD_HINTS[m]})
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Enrichment">
        {(p) => (
          <Select
            {...p}
            value={value.enrichment}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, enrichment: e.target.value })}
          >
            {ENRICHMENT_OPTIONS.map((o) => (
              <option key={o} value={o}>
                {o === "full" ? "Full (summaries, keywords)" : "None"}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Indexing">
        {(p) => (
          <Select
            {...p}
            value={value.indexing}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, indexing: e.target.value })}
          >
            {indexingOptions.map((o) => (
              <option key={o} value={o}>
                {o === "full" ? "Full (searchable)" : "None (parse only)"}
              </option>
            ))}
          </Select>
        )}
      </Field>
    </div>
  </div>
);
