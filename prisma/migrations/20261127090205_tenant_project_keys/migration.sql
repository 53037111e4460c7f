-- Every tenant table gets a foreign key to its project, ON DELETE CASCADE like the tables that already had one
-- (sources, chunk_sets, flows, ...): deleting a project deletes all of its data, as it did through those tables,
-- and no table can hold rows of a project that does not exist.
--
-- Rows whose project no longer exists are deleted first. They cannot be valid: every read is scoped by a project,
-- so nothing reaches them, and the constraint could not be added while they exist. Only reembedding_jobs can hold
-- any in practice (it had no cascade, so a deleted project's jobs stayed); the other tables hang off a parent that
-- already cascaded from the project.

-- flow_node_stats gets the project of its flow (every stat has its flow: flow_id is a cascading foreign key).
ALTER TABLE "flow_node_stats" ADD COLUMN "project_id" UUID;
UPDATE "flow_node_stats" s SET "project_id" = f."project_id" FROM "flows" f WHERE f."id" = s."flow_id";
ALTER TABLE "flow_node_stats" ALTER COLUMN "project_id" SET NOT NULL;

-- Orphans
DELETE FROM "builds" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "elements" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "chunks" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "reembedding_jobs" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "conversation_turns" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "flow_revisions" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "graph_extractions" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "graph_entities" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "graph_relationships" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "graph_mentions" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "graph_communities" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "test_cases" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "evaluation_runs" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");
DELETE FROM "evaluation_cases" t WHERE NOT EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = t."project_id");

-- AddForeignKey
ALTER TABLE "builds" ADD CONSTRAINT "builds_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "elements" ADD CONSTRAINT "elements_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reembedding_jobs" ADD CONSTRAINT "reembedding_jobs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_turns" ADD CONSTRAINT "conversation_turns_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_revisions" ADD CONSTRAINT "flow_revisions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_extractions" ADD CONSTRAINT "graph_extractions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_entities" ADD CONSTRAINT "graph_entities_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_relationships" ADD CONSTRAINT "graph_relationships_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_mentions" ADD CONSTRAINT "graph_mentions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_communities" ADD CONSTRAINT "graph_communities_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_cases" ADD CONSTRAINT "test_cases_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_runs" ADD CONSTRAINT "evaluation_runs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_cases" ADD CONSTRAINT "evaluation_cases_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_node_stats" ADD CONSTRAINT "flow_node_stats_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
