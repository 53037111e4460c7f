-- AlterTable
ALTER TABLE "flow_revisions" ADD COLUMN     "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "estimate" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "node_indexes" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "flows" ADD COLUMN     "token_budget" INTEGER;

-- CreateTable
CREATE TABLE "flow_node_indexes" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "chunk_set_ids" UUID[],
    "config" JSONB NOT NULL DEFAULT '{}',
    "model" TEXT,
    "status" TEXT NOT NULL DEFAULT 'building',
    "step" TEXT,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "checkpoint" JSONB NOT NULL DEFAULT '{}',
    "usage" JSONB NOT NULL DEFAULT '{}',
    "counts" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "flow_node_indexes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "flow_node_indexes_project_id_key_key" ON "flow_node_indexes"("project_id", "key");

-- AddForeignKey
ALTER TABLE "flow_node_indexes" ADD CONSTRAINT "flow_node_indexes_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
