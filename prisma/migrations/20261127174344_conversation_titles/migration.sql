-- AlterTable
ALTER TABLE "conversations" ADD COLUMN     "title" TEXT;
