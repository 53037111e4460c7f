-- CreateTable
CREATE TABLE "flows" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL DEFAULT 'New',
    "graph" JSONB NOT NULL DEFAULT '{"nodes": [], "edges": []}',
    "node_state" JSONB NOT NULL DEFAULT '{}',
    "version" INTEGER NOT NULL DEFAULT 0,
    "active_revision_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "flows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "flow_revisions" (
    "id" UUID NOT NULL,
    "flow_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "snapshot" JSONB NOT NULL,
    "tool_description" TEXT,
    "status" TEXT NOT NULL DEFAULT 'building',
    "step" TEXT,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "chunk_sets" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "flow_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "flow_node_stats" (
    "flow_id" UUID NOT NULL,
    "node_id" TEXT NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "items_out" INTEGER NOT NULL DEFAULT 0,
    "response_chars" BIGINT NOT NULL DEFAULT 0,
    "processing_ms" BIGINT NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "last_run_at" TIMESTAMPTZ(3),

    CONSTRAINT "flow_node_stats_pkey" PRIMARY KEY ("flow_id","node_id")
);

-- CreateTable
CREATE TABLE "flow_prompts" (
    "project_id" UUID NOT NULL,
    "prompt_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "flow_prompts_pkey" PRIMARY KEY ("project_id","prompt_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "flows_project_id_name_key" ON "flows"("project_id", "name");

-- CreateIndex
CREATE INDEX "flow_revisions_project_id_idx" ON "flow_revisions"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "flow_revisions_flow_id_number_key" ON "flow_revisions"("flow_id", "number");

-- AddForeignKey
ALTER TABLE "flows" ADD CONSTRAINT "flows_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_revisions" ADD CONSTRAINT "flow_revisions_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "flows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_node_stats" ADD CONSTRAINT "flow_node_stats_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "flows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_prompts" ADD CONSTRAINT "flow_prompts_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
