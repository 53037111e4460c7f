-- AlterTable
ALTER TABLE "chunks" ADD COLUMN     "level" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "node_index_id" UUID;

-- CreateIndex
CREATE INDEX "chunks_node_index_id_level_position_idx" ON "chunks"("node_index_id", "level", "position");

-- AddForeignKey
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_node_index_id_fkey" FOREIGN KEY ("node_index_id") REFERENCES "flow_node_indexes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: RAPTOR summaries get no full-text vector, so the full-text statistics keyword search reads from
-- pg_stats (server/retrieval/keyword-query.ts) count the documents' own chunks only. A tree searches its summaries
-- by vector and, with BM25, by the BM25 index (which covers every row).
CREATE OR REPLACE FUNCTION "chunks_tsv_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.node_index_id IS NOT NULL THEN
    NEW.tsv := NULL;
  ELSE
    NEW.tsv := to_tsvector('english', NEW.title || ' ' || NEW.heading || ' ' || coalesce(NEW.text, ''));
  END IF;
  RETURN NEW;
END
$$;
