import pg from "pg";
import { appDatabaseUrl } from "../../server/testing/quarry-process";

/**
 * One statement on the app's database, for states a browser walk cannot reach reliably (set up by hand, never caught
 * mid-flight). Only beside a local app: specs that use it skip under E2E_BASE_URL.
 */
export const appSql = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => {
  const db = new pg.Client({
    connectionString: appDatabaseUrl({ dataDir: process.env.E2E_DATA_DIR!, databaseUrl: undefined }),
  });
  await db.connect();
  try {
    return (await db.query<T>(text, params)).rows;
  } finally {
    await db.end();
  }
};
