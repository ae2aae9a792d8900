import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from "kysely";

// Migrations import nothing from the app; this is the only dialect knowledge they need.
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-incrementing integer primary key on either dialect. */
export function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, any>, big = false) {
  return isPostgres(db)
    ? table.addColumn("id", big ? "bigserial" : "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

/** created_at and updated_at as epoch milliseconds. */
export function withTimestamps<T extends string>(table: CreateTableBuilder<T, any>) {
  return table.addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("updated_at", "bigint", (c) => c.notNull());
}

export const cascade = (c: ColumnDefinitionBuilder) => c.onDelete("cascade");

/** A table clustered by its primary key on SQLite (WITHOUT ROWID), as the analytics roll-ups are; as is on PostgreSQL. */
export function clustered<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return isPostgres(db) ? table : table.modifyEnd(sql`without rowid`);
}
