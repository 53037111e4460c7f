import { serve } from "inngest/next";
import type { NextRequest } from "next/server";
import { inngest } from "@/server/jobs/client";
import { functions } from "@/inngest/index";
import { executorOnly } from "@/server/jobs/executor-only";

export const dynamic = "force-dynamic";

const sdk = serve({ client: inngest, functions });

/**
 * Ingestion jobs: called by the Inngest server, or, with the local job runner, only by Quarry's in-process executor
 * with signed requests (executor-only.ts says what anyone else gets).
 */
export const { GET, POST, PUT } = executorOnly({
  GET: (req: NextRequest) => sdk.GET(req, undefined),
  POST: (req: NextRequest) => sdk.POST(req, undefined),
  PUT: (req: NextRequest) => sdk.PUT(req, undefined),
});
