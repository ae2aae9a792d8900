// SQLite's per-value statistics (decision 0030): opening the database drops sqlite_stat4, which an
// ANALYZE or PRAGMA optimize leaves behind and which makes SQLite plan a cached statement again for
// every new value bound to it; sqlite_stat1 stays, and other connections to the file see the drop.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/db.server";
import { dropPerValueStatistics } from "~/db/sqlite-dialect.server";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A database file whose ANALYZE left both statistics tables, as an operator's would. */
function analyzedFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mlango-stat4-"));
  dirs.push(dir);
  const file = path.join(dir, "mlango.db");
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.exec(
    "create table guests (id integer primary key, token text not null unique, venue integer not null); create index guests_venue on guests (venue)",
  );
  const insert = sqlite.prepare("insert into guests (token, venue) values (?, ?)");
  sqlite.transaction(() => {
    for (let i = 0; i < 2_000; i++) insert.run(`token-${i}`, i % 7);
  })();
  sqlite.exec("analyze");
  sqlite.close();
  return file;
}

const statisticsTables = (sqlite: SQLite.Database) =>
  sqlite.prepare("select name from sqlite_master where type = 'table' and name like 'sqlite_stat%' order by name").pluck().all();

describe("opening SQLite", () => {
  it("drops the per-value samples an ANALYZE left, keeps the row counts, and another connection sees them gone", async () => {
    const file = analyzedFile();
    const other = new SQLite(file);
    expect(statisticsTables(other)).toEqual(["sqlite_stat1", "sqlite_stat4"]);
    expect(other.prepare("select count(*) from sqlite_stat4").pluck().get()).toBeGreaterThan(0);

    const opened = openDatabase(`file:${file}`);
    try {
      expect(statisticsTables(opened.sqlite!)).toEqual(["sqlite_stat1"]);
      expect(opened.sqlite!.prepare("select count(*) from sqlite_stat1 where tbl = 'guests'").pluck().get()).toBeGreaterThan(0);
      // The connection opened before reads the changed schema on its next statement.
      expect(statisticsTables(other)).toEqual(["sqlite_stat1"]);
    } finally {
      await opened.db.destroy();
      other.close();
    }
  });

  it("leaves a database without samples alone, and does not fail while another process holds the write lock", () => {
    const file = analyzedFile();
    const holder = new SQLite(file);
    try {
      holder.exec("begin immediate");
      expect(dropPerValueStatistics(file, 20)).toBe(false);
      expect(statisticsTables(holder)).toEqual(["sqlite_stat1", "sqlite_stat4"]);
      holder.exec("commit");
      expect(dropPerValueStatistics(file, 20)).toBe(true);
      expect(dropPerValueStatistics(file, 20)).toBe(false);
      expect(statisticsTables(holder)).toEqual(["sqlite_stat1"]);
    } finally {
      holder.close();
    }
  });
});
