import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { APT_PACKAGES, PG_MAJOR, PGVECTOR_VERSION } from "./real-postgres";

/**
 * The scaled-out compose path, checked as far as a machine without Docker allows: docker-compose.yml parses and
 * references files that exist, the app's environment names are ones the app reads (server/env.ts), and the Postgres
 * image builds pgvector at the version and with the commands of the CI's real-Postgres run (scripts/real-postgres.ts).
 * Nothing here builds or starts an image.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

type Service = {
  build?: string | { context: string; dockerfile?: string };
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
};
const compose = parse(read("docker-compose.yml")) as { services: Record<string, Service>; volumes: object };

/** The variables server/env.ts parses: the only place the app reads its environment. */
const appEnvNames = () => new Set([...read("server/env.ts").matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]));

describe("docker-compose.yml", () => {
  it("builds its images from folders with a Dockerfile and names only volumes it declares", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.build ?? service.image, name).toBeTruthy();
      if (service.build) {
        const build = typeof service.build === "string" ? { context: service.build } : service.build;
        expect(existsSync(path.join(ROOT, build.context, build.dockerfile ?? "Dockerfile")), name).toBe(true);
      }
      for (const volume of service.volumes ?? []) {
        expect(Object.keys(compose.volumes), `${name}: ${volume}`).toContain(volume.split(":")[0]);
      }
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect(compose.services).toHaveProperty(dependency);
    }
    expect(compose.services.app!.depends_on?.postgres?.condition).toBe("service_healthy");
    expect(compose.services.postgres!.healthcheck?.test.join(" ")).toMatch(/pg_isready/);
  });

  it("sets only variables the app reads, and points the app at the compose Postgres and Inngest", () => {
    const names = appEnvNames();
    const app = compose.services.app!.environment!;
    expect(Object.keys(app).filter((name) => !names.has(name))).toEqual([]);
    const database = new URL(app.DATABASE_URL!);
    const postgres = compose.services.postgres!.environment!;
    expect(database.hostname).toBe("postgres");
    expect([database.username, database.password, database.pathname.slice(1)]).toEqual([
      postgres.POSTGRES_USER,
      postgres.POSTGRES_PASSWORD,
      postgres.POSTGRES_DB,
    ]);
    expect(new URL(app.INNGEST_BASE_URL!).hostname).toBe("inngest");
    expect(app.QUARRY_JOB_RUNNER).toBe("inngest");
  });
});

describe("docker/postgres/Dockerfile", () => {
  const dockerfile = read("docker/postgres/Dockerfile");

  it("builds the pgvector release CI builds, with the same commands", () => {
    expect(dockerfile).toContain(`ARG PGVECTOR_VERSION=${PGVECTOR_VERSION}`);
    // scripts/real-postgres.ts runs `make OPTFLAGS=` then `make install` with the server's pg_config.
    expect(dockerfile).toMatch(/make -C \/src\/pgvector OPTFLAGS=""/);
    expect(dockerfile).toMatch(/make -C \/src\/pgvector install/);
    expect(read("scripts/real-postgres.ts")).toMatch(/"OPTFLAGS="/);
    // The same build packages, for the image's Postgres major version (the image brings the server itself).
    const buildPackages = APT_PACKAGES.filter((p) => p !== `postgresql-${PG_MAJOR}`);
    for (const pkg of buildPackages) expect(dockerfile).toContain(pkg.replace(String(PG_MAJOR), "${PG_MAJOR}"));
  });

  it("preloads pg_textsearch, which Quarry's BM25 needs", () => {
    expect(dockerfile).toMatch(/shared_preload_libraries=pg_textsearch/);
    expect(dockerfile).toMatch(/ARG PG_MAJOR=17/);
  });
});
