-- CreateTable
CREATE TABLE "graph_extractions" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "node_index_id" UUID NOT NULL,
    "batch" INTEGER NOT NULL,
    "chunk_id" UUID NOT NULL,
    "entities" JSONB NOT NULL DEFAULT '[]',
    "relationships" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "graph_extractions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "graph_entities" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "node_index_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "mentions" INTEGER NOT NULL DEFAULT 0,
    "degree" INTEGER NOT NULL DEFAULT 0,
    "community_id" UUID,
    "embedding" vector,
    "embedding_model" TEXT,

    CONSTRAINT "graph_entities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "graph_relationships" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "node_index_id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "target_id" UUID NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "weight" DOUBLE PRECISION NOT NULL DEFAULT 1,

    CONSTRAINT "graph_relationships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "graph_mentions" (
    "project_id" UUID NOT NULL,
    "node_index_id" UUID NOT NULL,
    "entity_id" UUID NOT NULL,
    "chunk_id" UUID NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "graph_mentions_pkey" PRIMARY KEY ("entity_id","chunk_id")
);

-- CreateTable
CREATE TABLE "graph_communities" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "node_index_id" UUID NOT NULL,
    "level" INTEGER NOT NULL,
    "parent_id" UUID,
    "entity_ids" UUID[],
    "title" TEXT NOT NULL DEFAULT '',
    "summary" TEXT,
    "embedding" vector,
    "embedding_model" TEXT,

    CONSTRAINT "graph_communities_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "graph_extractions_node_index_id_batch_idx" ON "graph_extractions"("node_index_id", "batch");

-- CreateIndex
CREATE UNIQUE INDEX "graph_extractions_node_index_id_chunk_id_key" ON "graph_extractions"("node_index_id", "chunk_id");

-- CreateIndex
CREATE INDEX "graph_entities_project_id_node_index_id_idx" ON "graph_entities"("project_id", "node_index_id");

-- CreateIndex
CREATE UNIQUE INDEX "graph_entities_node_index_id_key_key" ON "graph_entities"("node_index_id", "key");

-- CreateIndex
CREATE INDEX "graph_relationships_node_index_id_source_id_idx" ON "graph_relationships"("node_index_id", "source_id");

-- CreateIndex
CREATE INDEX "graph_relationships_node_index_id_target_id_idx" ON "graph_relationships"("node_index_id", "target_id");

-- CreateIndex
CREATE INDEX "graph_mentions_node_index_id_chunk_id_idx" ON "graph_mentions"("node_index_id", "chunk_id");

-- CreateIndex
CREATE INDEX "graph_communities_project_id_node_index_id_idx" ON "graph_communities"("project_id", "node_index_id");

-- AddForeignKey
ALTER TABLE "graph_extractions" ADD CONSTRAINT "graph_extractions_node_index_id_fkey" FOREIGN KEY ("node_index_id") REFERENCES "flow_node_indexes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_entities" ADD CONSTRAINT "graph_entities_node_index_id_fkey" FOREIGN KEY ("node_index_id") REFERENCES "flow_node_indexes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_relationships" ADD CONSTRAINT "graph_relationships_node_index_id_fkey" FOREIGN KEY ("node_index_id") REFERENCES "flow_node_indexes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_mentions" ADD CONSTRAINT "graph_mentions_node_index_id_fkey" FOREIGN KEY ("node_index_id") REFERENCES "flow_node_indexes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_mentions" ADD CONSTRAINT "graph_mentions_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "graph_entities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_communities" ADD CONSTRAINT "graph_communities_node_index_id_fkey" FOREIGN KEY ("node_index_id") REFERENCES "flow_node_indexes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
