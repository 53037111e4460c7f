-- CreateEnum
CREATE TYPE "ModelProviderKind" AS ENUM ('openai', 'groq', 'openai_compatible', 'embedding', 'rerank', 'vision', 'speech');

-- CreateTable
CREATE TABLE "model_providers" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "kind" "ModelProviderKind" NOT NULL,
    "name" TEXT NOT NULL,
    "base_url" TEXT NOT NULL,
    "encrypted_key" TEXT,
    "key_prefix" TEXT,
    "served_models" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "models_fetched_at" TIMESTAMPTZ(3),
    "last_test" JSONB,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "model_providers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "model_providers_team_id_name_key" ON "model_providers"("team_id", "name");

-- AddForeignKey
ALTER TABLE "model_providers" ADD CONSTRAINT "model_providers_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
