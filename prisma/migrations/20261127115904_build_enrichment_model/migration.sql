-- Who wrote a build's enrichment, recorded by the enrich step (GET /builds scanned every element for it).
ALTER TABLE "builds" ADD COLUMN "enrichment_model" TEXT;
