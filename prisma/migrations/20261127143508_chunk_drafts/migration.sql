-- CreateTable
CREATE TABLE "chunk_drafts" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "chunk_set_id" UUID NOT NULL,
    "build_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "heading" TEXT NOT NULL DEFAULT '',
    "page_number" INTEGER,
    "element_ids" TEXT[],
    "metadata" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "chunk_drafts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "chunk_drafts_build_id_position_idx" ON "chunk_drafts"("build_id", "position");

-- CreateIndex
CREATE INDEX "chunk_drafts_chunk_set_id_idx" ON "chunk_drafts"("chunk_set_id");

-- AddForeignKey
ALTER TABLE "chunk_drafts" ADD CONSTRAINT "chunk_drafts_chunk_set_id_fkey" FOREIGN KEY ("chunk_set_id") REFERENCES "chunk_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
