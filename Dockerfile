# Quarry app image for the scaled-out shape (docker-compose.yml): Postgres+pgvector and Inngest are separate services.
FROM node:20-bookworm-slim
WORKDIR /app
# System tools parsing uses: LibreOffice (legacy Office, Office screenshots), ffmpeg (audio, video), a font.
RUN apt-get update && apt-get install -y --no-install-recommends libreoffice-writer libreoffice-calc \
    libreoffice-impress ffmpeg fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
ENV NEXT_TELEMETRY_DISABLED=1
# Memory settings of `npm start` (scripts/start.ts says why).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
COPY prisma prisma
COPY prisma.config.ts ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx tsx scripts/build.ts
EXPOSE 3000
CMD ["node", "--max-semi-space-size=8", "scripts/start.mjs"]
