-- Retrieval excludes a project's flow-owned chunk sets on every search: with this index it reads only those rows,
-- instead of every chunk set of the project (one per source).
-- CreateIndex
CREATE INDEX "chunk_sets_project_id_owner_kind_idx" ON "chunk_sets"("project_id", "owner_kind");
