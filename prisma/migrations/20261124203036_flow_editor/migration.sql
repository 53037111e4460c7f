-- AlterTable
ALTER TABLE "flow_revisions" ADD COLUMN     "deployed_by" TEXT;

-- AlterTable
ALTER TABLE "flows" ADD COLUMN     "draft_version" INTEGER NOT NULL DEFAULT 0;
