-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "deleting_at" TIMESTAMPTZ(3),
ADD COLUMN     "deletion_removed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "deletion_step" TEXT;
