-- AlterTable
ALTER TABLE "builds" ADD COLUMN     "page_methods" JSONB;
