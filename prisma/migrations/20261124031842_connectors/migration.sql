-- AlterTable
ALTER TABLE "builds" ADD COLUMN     "acquired" JSONB;

-- AlterTable
ALTER TABLE "sources" ADD COLUMN     "origin" JSONB;
