import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { SourceStatus } from "./types";

const TONE: Record<SourceStatus, BadgeTone> = {
  New: "neutral",
  Processing: "info",
  Completed: "success",
  Failed: "danger",
};

export const SourceStatusBadge = ({ status }: { status: SourceStatus }) => <Badge tone={TONE[status]}>{status}</Badge>;
