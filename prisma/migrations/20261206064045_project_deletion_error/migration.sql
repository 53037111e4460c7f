-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "deletion_attempt" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "deletion_error" TEXT;
