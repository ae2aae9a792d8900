import fs from "node:fs";
import pg from "pg";

// Each vitest run gets databases of its own (named by this run id), so runs side by side on
// one machine cannot disturb each other; the run's databases are dropped when it ends.
export const pgAdminUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export default function setup() {
  const runId = `${process.pid}`;
  process.env.MLANGO_TEST_RUN = runId;
  return async function teardown() {
    fs.rmSync(`data/test/run-${runId}`, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    try {
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [
        `mlango_test_${runId}_%`,
      ]);
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    } catch {
      // PostgreSQL not reachable: the postgres project has already failed and said why.
    } finally {
      await admin.end().catch(() => undefined);
    }
  };
}
