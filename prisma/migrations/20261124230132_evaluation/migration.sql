-- CreateTable
CREATE TABLE "test_sets" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "case_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_sets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_cases" (
    "id" UUID NOT NULL,
    "test_set_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "question" TEXT NOT NULL,
    "expected_answer" TEXT NOT NULL DEFAULT '',
    "relevant_file_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "relevant_passages" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "test_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluation_runs" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "flow_id" UUID NOT NULL,
    "test_set_id" UUID NOT NULL,
    "target" TEXT NOT NULL,
    "revision_id" UUID,
    "revision_number" INTEGER,
    "serving_revision_id" UUID,
    "graph" JSONB NOT NULL,
    "graph_hash" TEXT NOT NULL,
    "chunk_sets" JSONB NOT NULL DEFAULT '{}',
    "judge_model" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "total_cases" INTEGER NOT NULL,
    "done_cases" INTEGER NOT NULL DEFAULT 0,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "aggregates" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "evaluation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluation_cases" (
    "run_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "node_id" TEXT NOT NULL,
    "project_id" UUID NOT NULL,
    "test_case_id" UUID NOT NULL,
    "question" TEXT NOT NULL,
    "retrieved" JSONB NOT NULL DEFAULT '[]',
    "answer" TEXT,
    "metrics" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,

    CONSTRAINT "evaluation_cases_pkey" PRIMARY KEY ("run_id","position","node_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "test_sets_project_id_name_key" ON "test_sets"("project_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "test_cases_test_set_id_position_key" ON "test_cases"("test_set_id", "position");

-- CreateIndex
CREATE INDEX "evaluation_runs_project_id_flow_id_created_at_idx" ON "evaluation_runs"("project_id", "flow_id", "created_at");

-- AddForeignKey
ALTER TABLE "test_sets" ADD CONSTRAINT "test_sets_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_cases" ADD CONSTRAINT "test_cases_test_set_id_fkey" FOREIGN KEY ("test_set_id") REFERENCES "test_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_runs" ADD CONSTRAINT "evaluation_runs_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "flows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_runs" ADD CONSTRAINT "evaluation_runs_test_set_id_fkey" FOREIGN KEY ("test_set_id") REFERENCES "test_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_cases" ADD CONSTRAINT "evaluation_cases_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "evaluation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
