// SQLite shared by several processes (the server, `jobs:work`, `reports:run` from cron) — decision 0012.
//   - Write transactions take the write lock when they begin (BEGIN IMMEDIATE). Kysely's plain
//     BEGIN is deferred: a transaction that reads and then writes fails at once with "database is
//     locked" when another process wrote in between, and no busy timeout can help it.
//   - Waiting for the lock never blocks the event loop. better-sqlite3 is synchronous, so SQLite's
//     own busy_timeout would freeze every request of this process while it waits; instead the busy
//     timeout is 0 and a busy BEGIN IMMEDIATE or autocommit statement is retried on a timer.
// A statement inside an open transaction is not retried: the transaction already holds the lock.
import SQLite from "better-sqlite3";
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type QueryResult } from "kysely";

/** How long a statement waits, in total, for another process to release the database. */
export const SQLITE_BUSY_WAIT_MS = 5_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `attempt`, retrying on a busy database with growing, jittered pauses until SQLITE_BUSY_WAIT_MS. */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, retryable: () => boolean): Promise<T> {
  const deadline = Date.now() + SQLITE_BUSY_WAIT_MS;
  for (let delay = 1; ; delay = Math.min(delay * 1.5, 100)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || !retryable() || Date.now() >= deadline) throw error;
      await pause(delay / 2 + Math.random() * delay);
    }
  }
}

/**
 * better-sqlite3's SQLite is built with STAT4. Once an ANALYZE (or `PRAGMA optimize`) has filled
 * sqlite_stat4, a prepared statement that compares an indexed column with a bound value is planned
 * again whenever the value changes, so the statement cache saves nothing: the connect page's view
 * went from 10 to 70 µs a lookup, and the page from 87 to 265 µs of server CPU (decision 0030).
 * Mlango's queries are planned and measured without per-value samples, so the table goes before a
 * process opens the database, on a connection of its own (a connection that has read the samples
 * keeps them in memory); sqlite_stat1 (row counts per index) stays. Dropping a table changes the
 * schema, so the other processes' connections read their statistics again, without the samples.
 * Answers whether it dropped the table.
 */
export function dropPerValueStatistics(file: string, busyTimeoutMs = 5_000): boolean {
  const sqlite = new SQLite(file, { timeout: busyTimeoutMs });
  try {
    if (!sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat4'").get()) return false;
    sqlite.exec("drop table sqlite_stat4");
    return true;
  } catch (error) {
    // Another process held the write lock past the busy timeout: the next start tries again.
    if (isBusy(error)) return false;
    throw error;
  } finally {
    sqlite.close();
  }
}

class RetryingConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly sqlite: SQLite.Database,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return retryWhileBusy(
      () => this.inner.executeQuery<R>(query),
      () => !this.sqlite.inTransaction,
    );
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** Statements kept compiled; the app issues a few hundred distinct SQL texts. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely's driver sees it, with prepared statements reused by SQL text (the least
 * recently used dropped first). Kysely prepares every query afresh, and preparing a statement on
 * connections compiles its roll-up triggers too: about 1.2 ms for an UPDATE, more than running it
 * (measured with bench/portal.bench.ts, decision 0014). The driver runs one query at a time on its
 * one connection, so a statement is never used by two queries at once.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (source: string) => {
    let statement = cache.get(source);
    if (statement) cache.delete(source);
    else statement = sqlite.prepare(source);
    cache.set(source, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return statement;
  };
  return { prepare, close: () => sqlite.close() } as unknown as SQLite.Database;
}

class ImmediateSqliteDriver extends SqliteDriver {
  #connection: RetryingConnection | undefined;

  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: withStatementCache(sqlite) });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    this.#connection ??= new RetryingConnection(inner, this.sqlite);
    return this.#connection;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

/** Kysely's SQLite dialect with BEGIN IMMEDIATE and a busy wait that keeps the event loop free. */
export class SharedSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
    sqlite.pragma("busy_timeout = 0");
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.sqlite);
  }
}
