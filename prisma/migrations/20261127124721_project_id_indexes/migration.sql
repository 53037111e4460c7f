-- Tenant tables that had a foreign key to their project but no index on it: deleting a project scanned each whole table.
CREATE INDEX "flow_node_stats_project_id_idx" ON "flow_node_stats"("project_id");
CREATE INDEX "test_cases_project_id_idx" ON "test_cases"("project_id");
CREATE INDEX "evaluation_cases_project_id_idx" ON "evaluation_cases"("project_id");
CREATE INDEX "graph_extractions_project_id_idx" ON "graph_extractions"("project_id");
CREATE INDEX "graph_relationships_project_id_idx" ON "graph_relationships"("project_id");
CREATE INDEX "graph_mentions_project_id_idx" ON "graph_mentions"("project_id");
