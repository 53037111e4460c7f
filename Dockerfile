# Quarry app image for the scaled-out shape (docker-compose.yml): Postgres+pgvector and Inngest are separate services.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
COPY prisma prisma
COPY prisma.config.ts ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx next build
EXPOSE 3000
CMD ["npx", "tsx", "scripts/start.ts"]
