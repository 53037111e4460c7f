-- AlterTable
ALTER TABLE "conversation_turns" ADD COLUMN     "citations" JSONB NOT NULL DEFAULT '[]';
