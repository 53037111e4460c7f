import { describe, expect, it } from "vitest";
import { searchConnectionOptions } from "./search-pool";

/**
 * The two pools' startup options. Generic plans only on the prepared statements' connections: node-postgres sends
 * every statement with values as an unnamed prepared one, which `plan_cache_mode` reaches too, and BM25 searches
 * (never prepared) need custom plans for pg_textsearch to serve their scores from its index scan.
 */
describe("the search connections' startup options", () => {
  const settings = (options: string) =>
    Object.fromEntries([...options.matchAll(/-c (\S+)=(\S+)/g)].map((m) => [m[1], m[2]]));

  it("leave the plain connections, where BM25 searches run, to Postgres' own plan choice", () => {
    const plain = settings(searchConnectionOptions());
    expect(plain).not.toHaveProperty("plan_cache_mode");
    expect(plain).toMatchObject({ "hnsw.iterative_scan": "relaxed_order", enable_seqscan: "off" });
  });

  it("plan the prepared (full-text) searches once, generically, with the same search settings", () => {
    const plain = settings(searchConnectionOptions());
    const prepared = settings(searchConnectionOptions({ prepared: true }));
    expect(prepared).toEqual({ ...plain, plan_cache_mode: "force_generic_plan" });
  });
});
