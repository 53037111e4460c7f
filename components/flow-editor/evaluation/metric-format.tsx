import type { AppRouter } from "@/server/trpc/root";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>["dashboard"]["evaluation"];
export type EvaluationRun = Outputs["runs"][number];
export type RunPage = Outputs["run"];
export type CaseRow = RunPage["cases"][number];
export type Comparison = Outputs["compare"];
export type MetricCell = { value: number | null; form: string; reason: string; details?: unknown };

/** The four RAGAS metrics, and nDCG@10 when the test set has gold documents. */
export const METRICS = [
  { key: "contextual_precision", label: "Context precision", short: "Precision" },
  { key: "contextual_recall", label: "Context recall", short: "Recall" },
  { key: "answer_relevancy", label: "Answer relevancy", short: "Relevancy" },
  { key: "faithfulness", label: "Faithfulness", short: "Faithful" },
  { key: "ndcg_at_10", label: "nDCG@10", short: "nDCG@10" },
] as const;

export const FORM_TEXT: Record<string, string> = {
  judge: "judged by the chat model",
  "gold-file-ids": "exact, from the gold relevant documents",
  "gold-passages": "exact, from the gold relevant passages",
  none: "not computed",
};

export const fmt = (value: number | null | undefined) => (typeof value === "number" ? value.toFixed(2) : "—");

const tone = (value: number) =>
  value >= 0.75
    ? "text-emerald-700 dark:text-emerald-300"
    : value >= 0.4
      ? "text-amber-700 dark:text-amber-300"
      : "text-red-700 dark:text-red-300";

/** A metric value, or "—" with its reason on hover (and for screen readers). */
export const MetricValue = ({ cell }: { cell: MetricCell | null | undefined }) => {
  if (!cell) return <span className="text-muted-foreground">·</span>;
  const title = `${FORM_TEXT[cell.form] ?? cell.form}: ${cell.reason}`;
  return cell.value === null ? (
    <span title={title} aria-label={`— (${cell.reason})`} className="cursor-help text-muted-foreground">
      —
    </span>
  ) : (
    <span title={title} className={`cursor-help font-mono tabular-nums ${tone(cell.value)}`}>
      {cell.value.toFixed(2)}
    </span>
  );
};

export const STATUS_TONE: Record<string, "neutral" | "info" | "success" | "warning" | "danger"> = {
  queued: "neutral",
  running: "info",
  completed: "success",
  cancelled: "warning",
  failed: "danger",
};

export const runLabel = (run: Pick<EvaluationRun, "flowName" | "label">, withFlow = false) =>
  withFlow ? `${run.flowName} · ${run.label}` : run.label;
