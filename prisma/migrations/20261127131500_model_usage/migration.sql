-- CreateEnum
CREATE TYPE "ModelCallCause" AS ENUM ('ask', 'extraction', 'enrichment', 'ingestion', 'search', 'flow_run', 'flow_build', 'graph_build', 'raptor_build', 'evaluation', 'reembedding');

-- CreateEnum
CREATE TYPE "ModelCapability" AS ENUM ('chat', 'embedding', 'rerank', 'vision', 'speech');

-- CreateTable
CREATE TABLE "model_calls" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "cause" "ModelCallCause" NOT NULL,
    "capability" "ModelCapability" NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "tokens_in" INTEGER NOT NULL,
    "tokens_out" INTEGER NOT NULL,
    "estimated" BOOLEAN NOT NULL DEFAULT false,
    "latency_ms" INTEGER NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "error" TEXT,
    "subject" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_prices" (
    "team_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "input_per_million" DOUBLE PRECISION NOT NULL,
    "output_per_million" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "model_prices_pkey" PRIMARY KEY ("team_id","model")
);

-- CreateIndex
CREATE INDEX "model_calls_project_id_created_at_idx" ON "model_calls"("project_id", "created_at");

-- CreateIndex
CREATE INDEX "model_calls_subject_idx" ON "model_calls"("subject");

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_prices" ADD CONSTRAINT "model_prices_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
