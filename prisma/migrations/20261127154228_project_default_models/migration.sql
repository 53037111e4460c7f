-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "default_chat_model" TEXT,
ADD COLUMN     "default_embedding_model" TEXT,
ADD COLUMN     "default_rerank_model" TEXT,
ADD COLUMN     "default_speech_model" TEXT,
ADD COLUMN     "default_vision_model" TEXT;
