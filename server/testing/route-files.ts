import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The app's routes as the files on disk declare them, for tests that must cover a route added tomorrow without being
 * edited: `app/**\/route.ts` with the HTTP methods each exports, and `app/**\/page.tsx`, each as a URL template
 * (`/api/public/v1/flows/[flowName]`; route groups such as `(auth)` dropped).
 */

export const ROOT = path.resolve(import.meta.dirname, "../..");
const APP = path.join(ROOT, "app");

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

export type AppFile = { file: string; template: string; source: string };

const filesNamed = (dir: string, name: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesNamed(full, name) : entry === name ? [full] : [];
  });

const appFiles = (name: string): AppFile[] =>
  filesNamed(APP, name).map((file) => {
    const segments = path
      .relative(APP, path.dirname(file))
      .split(path.sep)
      .filter((s) => s && !/^\(.*\)$/.test(s));
    return { file: path.relative(ROOT, file), template: `/${segments.join("/")}`, source: readFileSync(file, "utf8") };
  });

/** Every method name a route file exports, in any of the forms the routes use (`export const GET`, `export {…}`). */
export const exportedMethods = (source: string): Method[] => {
  const names = new Set([
    ...[...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
      (m) => m[1]!,
    ),
    ...[...source.matchAll(/export (?:const )?\{([^}]*)\}/g)].flatMap((m) =>
      m[1]!.split(",").map((s) =>
        s
          .trim()
          .split(/\s+as\s+/)
          .at(-1)!,
      ),
    ),
  ]);
  return METHODS.filter((m) => names.has(m));
};

export const routeFiles = (): (AppFile & { methods: Method[] })[] =>
  appFiles("route.ts").map((r) => ({ ...r, methods: exportedMethods(r.source) }));

export const pageFiles = (): AppFile[] => appFiles("page.tsx");

/** The names of a template's dynamic segments, in order (`[...all]` gives `all`). */
export const templateParams = (template: string): string[] =>
  [...template.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)].map((m) => m[1]!);

/** The template with each dynamic segment replaced by `values[name]` (already URL-encoded). */
export const fillTemplate = (template: string, values: Record<string, string>): string =>
  template.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_, name: string) => values[name] ?? "x");
