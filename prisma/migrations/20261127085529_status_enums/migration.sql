-- The seven status columns that were free text become enums holding exactly the strings stored until now (the API
-- shows them as they are, "Not deployed" included). Each column changes type in place, so every row keeps its
-- status; a value outside its enum makes the migration fail and roll back rather than lose it. The default is a
-- text literal, so it is dropped before the change and set again after it. Indexes on the columns are rebuilt by
-- the ALTER.

-- CreateEnum
CREATE TYPE "ChunkSetStatus" AS ENUM ('building', 'ready');

-- CreateEnum
CREATE TYPE "ReembeddingJobStatus" AS ENUM ('running', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "EvaluationRunStatus" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "FlowStatus" AS ENUM ('New', 'Not deployed', 'Deployed', 'Failed');

-- CreateEnum
CREATE TYPE "FlowRevisionStatus" AS ENUM ('building', 'ready', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "FlowNodeIndexStatus" AS ENUM ('building', 'ready', 'failed');

-- CreateEnum
CREATE TYPE "JobRunStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

-- AlterTable
ALTER TABLE "chunk_sets" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "ChunkSetStatus" USING "status"::"ChunkSetStatus",
ALTER COLUMN "status" SET DEFAULT 'building';

-- AlterTable
ALTER TABLE "evaluation_runs" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "EvaluationRunStatus" USING "status"::"EvaluationRunStatus",
ALTER COLUMN "status" SET DEFAULT 'queued';

-- AlterTable
ALTER TABLE "flow_node_indexes" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "FlowNodeIndexStatus" USING "status"::"FlowNodeIndexStatus",
ALTER COLUMN "status" SET DEFAULT 'building';

-- AlterTable
ALTER TABLE "flow_revisions" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "FlowRevisionStatus" USING "status"::"FlowRevisionStatus",
ALTER COLUMN "status" SET DEFAULT 'building';

-- AlterTable
ALTER TABLE "flows" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "FlowStatus" USING "status"::"FlowStatus",
ALTER COLUMN "status" SET DEFAULT 'New';

-- AlterTable
ALTER TABLE "job_runs" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "JobRunStatus" USING "status"::"JobRunStatus",
ALTER COLUMN "status" SET DEFAULT 'queued';

-- AlterTable
ALTER TABLE "reembedding_jobs" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "ReembeddingJobStatus" USING "status"::"ReembeddingJobStatus",
ALTER COLUMN "status" SET DEFAULT 'running';
