import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/index";

export const dynamic = "force-dynamic";

/** Ingestion jobs: called by the Inngest server, or by Quarry's in-process executor with signed requests. */
export const { GET, POST, PUT } = serve({ client: inngest, functions });
