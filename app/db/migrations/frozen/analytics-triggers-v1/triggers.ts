// FROZEN (app/db/migrations/README.md): part of the analytics trigger generator as migrations 0004,
// 0012 and 0033–0036 use it, unchanged since 0036. Never edit this folder: tests/unit/migrations.test.ts
// holds its contents' hashes. New trigger behaviour is a new migration with its own statements.
//
// The triggers that keep the analytics roll-ups current (docs/decisions/0009-analytics-rollups.md).
// Each trigger is written once as plain SQL statements that SQLite trigger bodies and PostgreSQL
// plpgsql functions both accept (NEW/OLD, upserts, scalar subqueries, IS DISTINCT FROM), and
// rendered for the dialect at hand.
//
// A connection's contribution (the roll-ups hold the sums of every connection's contribution):
// - usage_hourly / usage_daily / usage_daily_ap: footfall 1, connections 1 if authorized, its bytes
//   and its dwell (ended connections only), in the hour and day it was created (UTC ones before
//   migration 0033, the organisation's since), per venue and for every venue together (venue_id
//   ALL_VENUES, so a year of the whole organisation is 365 rows), and per access point by day;
// - dimension_daily: footfall and connections under its authorization mode and under its device's
//   is_mobile / os / brand / browser (the device's current values, "Unknown" without a device),
//   per venue and for every venue together;
// - customer_visit_days: for an authorized connection with a customer, that customer's visit day
//   in the whole organisation (venue_key 0) and at its venue (venue_key = venue id). Each visit day
//   knows the customer's next visit day there (NEVER for the last) and the customer's first day in
//   the organisation (for counting several venues at once), and two aggregates follow from
//   those chains: customer_gaps counts (day, next day) pairs, customer_first_days counts
//   (first day in the organisation, first day at the venue) pairs. Distinct customers of a window
//   and its new customers are then sums over a few hundred aggregate rows instead of a scan of
//   every visit (the analytics service).
// - customer_presence_days / presence_gaps (migration 0034): the same chains for every connection
//   record with a customer, authorized or not (the all-visitors report), gaps only.
// An organisation listed in analytics_paused is skipped: the bulk loader pauses a new organisation
// and rebuilds its roll-ups in one pass at the end (app/db/rollups.server.ts); a deleted
// organisation stays paused, so its cascade does no roll-up work.
import { sql, type Kysely } from "kysely";
import { isPostgres } from "../../_dialect";
import { add, ALL_VENUES, type Buckets, deviceLabel, DIMENSIONS, dwellMs, isAuthorized, modeLabel, type Row, venueLevels } from "./sql";
import { presence, PRESENCE_DAYS, PRESENCE_TABLES } from "./presence";
import { chainLinks, firstChanges, organizationFirstDay, VISIT_DAYS, visit } from "./visits";

export interface Trigger {
  name: string;
  table: string;
  timing: "before" | "after";
  event: "insert" | "update" | "delete" | "update of is_mobile, os, brand, browser" | "update of connections";
  /** A condition on NEW/OLD only (PostgreSQL allows no subqueries in WHEN). */
  when?: string;
  /** The organisation whose pause is checked; none for the organisations' own triggers. */
  organization?: string;
  /** PostgreSQL only: a statement run first (row locks that SQLite's single writer makes unnecessary). */
  pgLock?: string;
  /** Skip the row when this holds (may use subqueries). */
  skipIf?: string;
  /** Built on this dialect only (PostgreSQL's statement triggers have no SQLite counterpart). */
  only?: "postgres" | "sqlite";
  /**
   * PostgreSQL: fired once per statement, with the statement's rows before and after in the
   * transition tables old_rows and new_rows (no when, organization, pgLock or skipIf).
   */
  perStatement?: boolean;
  statements: string[];
}

function usage(b: Buckets, r: Row, sign: 1 | -1): string[] {
  const s = String(sign);
  const figures = `${s}, ${s} * ${isAuthorized(r)}, ${s} * ${r}.upload, ${s} * ${r}.download, ${s} * ${dwellMs(r)}`;
  const sums = ["footfall", "connections", "upload", "download", "dwell_ms"];
  const columns = "footfall, connections, upload, download, dwell_ms";
  return [
    `insert into usage_hourly (organization_id, venue_id, hour_start, ${columns})
     select ${r}.organization_id, v.venue_id, ${b.hour(r)}, ${figures} from ${venueLevels(r)} v
     where true order by v.venue_id
     on conflict (organization_id, venue_id, hour_start) do update set ${add("usage_hourly", sums)}`,
    `insert into usage_daily (organization_id, venue_id, day_start, ${columns})
     select ${r}.organization_id, v.venue_id, ${b.day(r)}, ${figures} from ${venueLevels(r)} v
     where true order by v.venue_id
     on conflict (organization_id, venue_id, day_start) do update set ${add("usage_daily", sums)}`,
    `insert into usage_daily_ap (organization_id, day_start, venue_id, access_point_id, ${columns})
     values (${r}.organization_id, ${b.day(r)}, coalesce(${r}.venue_id, 0), coalesce(${r}.access_point_id, 0), ${figures})
     on conflict (organization_id, day_start, venue_id, access_point_id) do update set ${add("usage_daily_ap", sums)}`,
  ];
}

function dimensions(b: Buckets, r: Row, sign: 1 | -1): string[] {
  const device = (d: "is_mobile" | "os" | "brand" | "browser") =>
    `coalesce((select ${deviceLabel(d, "d")} from devices d where d.id = ${r}.device_id), 'Unknown')`;
  return [
    `insert into dimension_daily (organization_id, dimension, venue_id, day_start, value, footfall, connections)
     select ${r}.organization_id, k.dimension, v.venue_id, ${b.day(r)},
       case k.dimension when 'mode' then ${modeLabel(r)} when 'is_mobile' then ${device("is_mobile")}
         when 'os' then ${device("os")} when 'brand' then ${device("brand")} else ${device("browser")} end,
       ${sign}, ${sign} * ${isAuthorized(r)}
     from ${DIMENSIONS} k, ${venueLevels(r)} v where true
     order by k.dimension, v.venue_id
     on conflict (organization_id, dimension, venue_id, day_start, value) do update set ${add("dimension_daily", ["footfall", "connections"])}`,
  ];
}

const connectionKeyChanged = (columns: string[]) => columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(" OR ");
const authorizationChanged = "(OLD.authorized_at IS NULL) <> (NEW.authorized_at IS NULL)";
const customerLock = (r: Row) => `if ${r}.customer_id is not null then perform pg_advisory_xact_lock(4, ${r}.customer_id); end if`;

/** The day of the visit, its customer or its authorization changed (not just its venue). */
const organizationVisitMoved = (b: Buckets) =>
  `OLD.organization_id IS DISTINCT FROM NEW.organization_id OR ${b.day("OLD")} <> ${b.day("NEW")} OR OLD.customer_id IS DISTINCT FROM NEW.customer_id OR ${authorizationChanged}`;
/** The same for a presence day, which does not depend on authorization. */
const organizationPresenceMoved = (b: Buckets) =>
  `OLD.organization_id IS DISTINCT FROM NEW.organization_id OR ${b.day("OLD")} <> ${b.day("NEW")} OR OLD.customer_id IS DISTINCT FROM NEW.customer_id`;

/**
 * Deleting a venue or an access point sets its connections' reference to NULL, one row at a time.
 * Rather than moving each connection's figures, the venue's or access point's own delete trigger
 * moves its roll-up rows at once; the connection triggers skip rows where nothing else changed.
 */
function onlyDetached(watched: string[]): string {
  const gone = (column: string, table: string) =>
    `(OLD.${column} IS NOT DISTINCT FROM NEW.${column} OR (NEW.${column} IS NULL AND NOT EXISTS (SELECT 1 FROM ${table} g WHERE g.id = OLD.${column})))`;
  return watched
    .map((c) =>
      c === "venue_id" ? gone(c, "venues") : c === "access_point_id" ? gone(c, "access_points") : `OLD.${c} IS NOT DISTINCT FROM NEW.${c}`,
    )
    .join(" AND ");
}

/** Re-keys a deleted venue's or access point's roll-up rows to 0 ("deleted"), merging into existing ones. */
function moveRows(table: string, keys: string[], sums: string[], from: string): string[] {
  const moved = keys.map((k) => (k === from ? "0" : k)).join(", ");
  return [
    `insert into ${table} (${keys.join(", ")}, ${sums.join(", ")})
     select ${moved}, ${sums.map((c) => `sum(${c})`).join(", ")} from ${table}
     where organization_id = OLD.organization_id and ${from} = OLD.id
     group by ${keys.filter((k) => k !== from).join(", ")} order by ${keys.filter((k) => k !== from).join(", ")}
     on conflict (${keys.join(", ")}) do update set ${add(table, sums)}`,
    `delete from ${table} where organization_id = OLD.organization_id and ${from} = OLD.id`,
  ];
}

const USAGE_SUMS = ["footfall", "connections", "upload", "download", "dwell_ms"];
/** What places a connection's usage in its roll-up rows; its figures are the rest of USAGE_WATCH. */
const USAGE_KEYS = ["organization_id", "venue_id", "access_point_id", "created_at", "authorized_at"];
const USAGE_WATCH = [...USAGE_KEYS, "ended_at", "upload", "download"];
const DIMENSION_WATCH = ["organization_id", "venue_id", "created_at", "device_id", "authorization_mode"];
const VISIT_WATCH = ["organization_id", "venue_id", "created_at", "customer_id"];

export const ROLLUP_TABLES = [
  "usage_hourly",
  "usage_daily",
  "usage_daily_ap",
  "dimension_daily",
  "customer_visit_days",
  "customer_gaps",
  "customer_first_days",
  ...PRESENCE_TABLES,
  "customer_totals",
] as const;

export interface TriggerOptions {
  /**
   * Keep the presence chains (migration 0034 and later). Off by default so the older migrations
   * (0004, 0012, 0033) build exactly the triggers they built, on a database without those tables.
   */
  presence?: boolean;
  /** Keep customer_totals (migration 0035 and later), for the same reason off by default. */
  totals?: boolean;
  /**
   * PostgreSQL (migration 0036 and later): byte and end changes that move no connection to another
   * hour, venue or access point are summed per roll-up row once per statement, not row by row.
   */
  figuresPerStatement?: boolean;
}

/** A customer's days and authorized connections in the whole organisation (group filters' totals). */
export const TOTALS_TABLE = "customer_totals";
const totalsChange = (r: Row, days: string, connections: string) =>
  `insert into customer_totals (organization_id, customer_id, days, connections) values (${r}.organization_id, ${r}.customer_id, ${days}, ${connections})
   on conflict (organization_id, customer_id) do update set days = customer_totals.days + excluded.days, connections = customer_totals.connections + excluded.connections`;

const presenceDays = (o: TriggerOptions, b: Buckets, r: Row, sign: 1 | -1, scope: "organization" | "venue", onlyIf?: string) =>
  o.presence ? presence(b, r, sign, scope, onlyIf) : [];
const rollupTables = (o: TriggerOptions): readonly string[] =>
  ROLLUP_TABLES.filter((t) => (o.presence || !(PRESENCE_TABLES as readonly string[]).includes(t)) && (o.totals || t !== TOTALS_TABLE));

/**
 * A connection's usage rows after an update. Row by row, its old figures go and its new ones come.
 * With figuresPerStatement, PostgreSQL leaves the commonest update, an accounting batch's bytes and
 * ends, to one trigger per statement: it sums the changes of every such row per roll-up row, so a
 * batch of 500 updates a network's hour once instead of 1,000 times (decision 0021).
 */
function usageUpdateTriggers(b: Buckets, o: TriggerOptions): Trigger[] {
  const rowByRow = (watched: string[]): Trigger => ({
    name: "analytics_connection_usage",
    table: "connections",
    timing: "after",
    event: "update",
    when: connectionKeyChanged(watched),
    organization: "NEW.organization_id",
    skipIf: onlyDetached(watched),
    statements: [...usage(b, "OLD", -1), ...usage(b, "NEW", 1)],
  });
  if (!o.figuresPerStatement) return [rowByRow(USAGE_WATCH)];
  return [
    { ...rowByRow(USAGE_WATCH), only: "sqlite" },
    // The rows whose hour, day, venue, access point or authorization moved: row by row as before.
    { ...rowByRow(USAGE_KEYS), only: "postgres" },
    {
      name: "analytics_connection_figures",
      table: "connections",
      timing: "after",
      event: "update",
      only: "postgres",
      perStatement: true,
      statements: figureChanges(b),
    },
  ];
}

/**
 * The figure changes of a statement's rows whose usage keys stayed (old_rows, new_rows), summed per
 * roll-up row, each table's rows taken in key order as the row triggers take them (no deadlock).
 */
function figureChanges(b: Buckets): string[] {
  const changed = `from new_rows n join old_rows o on o.id = n.id join organizations zo on zo.id = n.organization_id`;
  const where = `where ${USAGE_KEYS.map((c) => `o.${c} IS NOT DISTINCT FROM n.${c}`).join(" and ")}
      and (n.upload <> o.upload or n.download <> o.download or n.ended_at IS DISTINCT FROM o.ended_at)
      and not exists (select 1 from analytics_paused ap where ap.organization_id = n.organization_id)`;
  const sums = `0, 0, sum(n.upload - o.upload), sum(n.download - o.download), sum(${dwellMs("n")} - ${dwellMs("o")})`;
  const set = add("x", ["upload", "download", "dwell_ms"]);
  const columns = "footfall, connections, upload, download, dwell_ms";
  const levels = `cross join lateral (select coalesce(n.venue_id, 0) as venue_id union all select ${ALL_VENUES}) v`;
  return [
    `insert into usage_hourly as x (organization_id, venue_id, hour_start, ${columns})
     select n.organization_id, v.venue_id, ${b.hour("n", "zo.utc_offset_ms")}, ${sums} ${changed} ${levels} ${where}
     group by 1, 2, 3 order by 1, 2, 3
     on conflict (organization_id, venue_id, hour_start) do update set ${set}`,
    `insert into usage_daily as x (organization_id, venue_id, day_start, ${columns})
     select n.organization_id, v.venue_id, ${b.day("n", "zo.utc_offset_ms")}, ${sums} ${changed} ${levels} ${where}
     group by 1, 2, 3 order by 1, 2, 3
     on conflict (organization_id, venue_id, day_start) do update set ${set}`,
    `insert into usage_daily_ap as x (organization_id, day_start, venue_id, access_point_id, ${columns})
     select n.organization_id, ${b.day("n", "zo.utc_offset_ms")}, coalesce(n.venue_id, 0), coalesce(n.access_point_id, 0), ${sums} ${changed} ${where}
     group by 1, 2, 3, 4 order by 1, 2, 3, 4
     on conflict (organization_id, day_start, venue_id, access_point_id) do update set ${set}`,
  ];
}

/** The triggers, bucketing by `b` (migrations before 0033 built them with UTC_BUCKETS). */
export const analyticsTriggers = (b: Buckets, o: TriggerOptions = {}): Trigger[] => [
  // connections
  {
    name: "analytics_connection_insert",
    table: "connections",
    timing: "after",
    event: "insert",
    organization: "NEW.organization_id",
    pgLock: customerLock("NEW"),
    statements: [
      ...usage(b, "NEW", 1),
      ...dimensions(b, "NEW", 1),
      ...visit(b, "NEW", 1, "organization"),
      ...visit(b, "NEW", 1, "venue"),
      ...presenceDays(o, b, "NEW", 1, "organization"),
      ...presenceDays(o, b, "NEW", 1, "venue"),
    ],
  },
  {
    name: "analytics_connection_delete",
    table: "connections",
    timing: "after",
    event: "delete",
    organization: "OLD.organization_id",
    pgLock: customerLock("OLD"),
    statements: [
      ...usage(b, "OLD", -1),
      ...dimensions(b, "OLD", -1),
      ...visit(b, "OLD", -1, "venue"),
      ...visit(b, "OLD", -1, "organization"),
      ...presenceDays(o, b, "OLD", -1, "venue"),
      ...presenceDays(o, b, "OLD", -1, "organization"),
    ],
  },
  ...usageUpdateTriggers(b, o),
  {
    // PostgreSQL fires a table's triggers in name order: this name puts the dimensions right after
    // the usage rows, the order the insert trigger takes them in (usage, dimensions, visits), so a
    // guest arriving and another authorizing at the same venue lock the shared roll-up rows in one
    // order instead of deadlocking (migration 0012, decision 0014).
    name: "analytics_connection_usage_dimensions",
    table: "connections",
    timing: "after",
    event: "update",
    when: `${connectionKeyChanged(DIMENSION_WATCH)} OR ${authorizationChanged}`,
    organization: "NEW.organization_id",
    skipIf: onlyDetached([...DIMENSION_WATCH, "authorized_at"]),
    statements: [...dimensions(b, "OLD", -1), ...dimensions(b, "NEW", 1)],
  },
  {
    name: "analytics_connection_visits",
    table: "connections",
    timing: "after",
    event: "update",
    when: `${connectionKeyChanged(VISIT_WATCH)} OR ${authorizationChanged}`,
    organization: "NEW.organization_id",
    skipIf: onlyDetached([...VISIT_WATCH, "authorized_at"]),
    pgLock: `${customerLock("OLD")}; ${customerLock("NEW")}`,
    statements: [
      ...visit(b, "OLD", -1, "venue"),
      ...visit(b, "NEW", 1, "venue"),
      // The organisation chain does not change when only the venue does (a deleted venue).
      ...visit(b, "OLD", -1, "organization", organizationVisitMoved(b)),
      ...visit(b, "NEW", 1, "organization", organizationVisitMoved(b)),
    ],
  },
  ...(o.presence
    ? [
        {
          // Named to fire right after analytics_connection_visits on PostgreSQL (name order), so an
          // update takes the roll-up rows in the insert trigger's order (visits, then presence).
          name: "analytics_connection_visits_presence",
          table: "connections",
          timing: "after",
          event: "update",
          when: connectionKeyChanged(VISIT_WATCH),
          organization: "NEW.organization_id",
          skipIf: onlyDetached(VISIT_WATCH),
          pgLock: `${customerLock("OLD")}; ${customerLock("NEW")}`,
          statements: [
            ...presenceDays(o, b, "OLD", -1, "venue"),
            ...presenceDays(o, b, "NEW", 1, "venue"),
            ...presenceDays(o, b, "OLD", -1, "organization", organizationPresenceMoved(b)),
            ...presenceDays(o, b, "NEW", 1, "organization", organizationPresenceMoved(b)),
          ],
        } satisfies Trigger,
      ]
    : []),

  // customer_visit_days: keep each chain's next days, the gap counts and the first-day pairs.
  {
    name: "analytics_visit_day_insert",
    table: "customer_visit_days",
    timing: "after",
    event: "insert",
    organization: "NEW.organization_id",
    statements: [
      ...chainLinks(VISIT_DAYS, "NEW"),
      firstChanges("NEW", "NEW.next_day", "NEW.day_start"),
      organizationFirstDay("NEW", "NEW.day_start"),
    ],
  },
  {
    name: "analytics_visit_day_delete",
    table: "customer_visit_days",
    timing: "after",
    event: "delete",
    organization: "OLD.organization_id",
    // A deleted venue's chains go at once (analytics_venue_delete).
    skipIf: "OLD.venue_key <> 0 AND NOT EXISTS (SELECT 1 FROM venues g WHERE g.id = OLD.venue_key)",
    statements: [
      ...chainLinks(VISIT_DAYS, "OLD"),
      firstChanges("OLD", "OLD.day_start", "OLD.next_day"),
      organizationFirstDay("OLD", "OLD.next_day"),
    ],
  },
  ...(o.presence
    ? [
        // customer_presence_days: the same chain upkeep, gaps only.
        {
          name: "analytics_presence_day_insert",
          table: "customer_presence_days",
          timing: "after",
          event: "insert",
          organization: "NEW.organization_id",
          statements: chainLinks(PRESENCE_DAYS, "NEW"),
        } satisfies Trigger,
        {
          name: "analytics_presence_day_delete",
          table: "customer_presence_days",
          timing: "after",
          event: "delete",
          organization: "OLD.organization_id",
          skipIf: "OLD.venue_key <> 0 AND NOT EXISTS (SELECT 1 FROM venues g WHERE g.id = OLD.venue_key)",
          statements: chainLinks(PRESENCE_DAYS, "OLD"),
        } satisfies Trigger,
      ]
    : []),

  // customer_totals: the organisation's visit days (venue key 0) of each customer, counted and summed,
  // so a group rule on a customer's total days or connections reads one row instead of summing them.
  // Their names put them after the chain triggers (PostgreSQL fires in name order).
  ...(o.totals
    ? ([
        {
          name: "analytics_visit_day_totals_insert",
          table: "customer_visit_days",
          timing: "after",
          event: "insert",
          when: "NEW.venue_key = 0",
          organization: "NEW.organization_id",
          statements: [totalsChange("NEW", "1", "NEW.connections")],
        },
        {
          name: "analytics_visit_day_totals_update",
          table: "customer_visit_days",
          timing: "after",
          event: "update of connections",
          when: "NEW.venue_key = 0 AND OLD.connections <> NEW.connections",
          organization: "NEW.organization_id",
          statements: [totalsChange("NEW", "0", "NEW.connections - OLD.connections")],
        },
        {
          name: "analytics_visit_day_totals_delete",
          table: "customer_visit_days",
          timing: "after",
          event: "delete",
          when: "OLD.venue_key = 0",
          organization: "OLD.organization_id",
          statements: [totalsChange("OLD", "-1", "-OLD.connections")],
        },
      ] satisfies Trigger[])
    : []),

  // devices: a changed property moves the device's connections to the new label; a deleted device
  // first lets go of its connections (as the foreign key would) while its labels can still be read.
  {
    name: "analytics_device_update",
    table: "devices",
    timing: "after",
    event: "update of is_mobile, os, brand, browser",
    when: connectionKeyChanged(["is_mobile", "os", "brand", "browser"]),
    organization: "NEW.organization_id",
    statements: [deviceMove(b, "OLD", -1), deviceMove(b, "NEW", 1)],
  },
  {
    name: "analytics_device_delete",
    table: "devices",
    timing: "before",
    event: "delete",
    organization: "OLD.organization_id",
    statements: ["update connections set device_id = null where device_id = OLD.id"],
  },

  // venues and access points: their roll-up rows move to "deleted" (0) at once; their customer
  // chains go (the organisation's chains and other venues' are unchanged).
  {
    name: "analytics_venue_delete",
    table: "venues",
    timing: "after",
    event: "delete",
    organization: "OLD.organization_id",
    statements: [
      ...moveRows("usage_hourly", ["organization_id", "venue_id", "hour_start"], USAGE_SUMS, "venue_id"),
      ...moveRows("usage_daily", ["organization_id", "venue_id", "day_start"], USAGE_SUMS, "venue_id"),
      ...moveRows("usage_daily_ap", ["organization_id", "day_start", "venue_id", "access_point_id"], USAGE_SUMS, "venue_id"),
      ...moveRows(
        "dimension_daily",
        ["organization_id", "dimension", "venue_id", "day_start", "value"],
        ["footfall", "connections"],
        "venue_id",
      ),
      "delete from customer_visit_days where organization_id = OLD.organization_id and venue_key = OLD.id",
      "delete from customer_gaps where organization_id = OLD.organization_id and venue_key = OLD.id",
      "delete from customer_first_days where organization_id = OLD.organization_id and venue_key = OLD.id",
      ...(o.presence
        ? [
            "delete from customer_presence_days where organization_id = OLD.organization_id and venue_key = OLD.id",
            "delete from presence_gaps where organization_id = OLD.organization_id and venue_key = OLD.id",
          ]
        : []),
    ],
  },
  {
    name: "analytics_access_point_delete",
    table: "access_points",
    timing: "after",
    event: "delete",
    organization: "OLD.organization_id",
    statements: moveRows("usage_daily_ap", ["organization_id", "day_start", "venue_id", "access_point_id"], USAGE_SUMS, "access_point_id"),
  },

  // organisations: a deleted organisation's roll-ups go first, and it stays paused so its cascade does no
  // roll-up work. The pause outlives the organisation on purpose: PostgreSQL fires the triggers of
  // cascaded deletes after the organisation's own triggers. Ids are never reused.
  {
    name: "analytics_organization_delete",
    table: "organizations",
    timing: "before",
    event: "delete",
    statements: [
      "insert into analytics_paused (organization_id) values (OLD.id) on conflict (organization_id) do nothing",
      ...rollupTables(o).map((t) => `delete from ${t} where organization_id = OLD.id`),
    ],
  },
];

function deviceMove(b: Buckets, r: Row, sign: 1 | -1): string {
  const label = (d: "is_mobile" | "os" | "brand" | "browser") => `coalesce(${deviceLabel(d, r)}, 'Unknown')`;
  const dayOf = b.day("c", "zo.utc_offset_ms");
  const venue = `case when v.level = 0 then coalesce(c.venue_id, 0) else ${ALL_VENUES} end`;
  return `insert into dimension_daily (organization_id, dimension, venue_id, day_start, value, footfall, connections)
    select c.organization_id, k.dimension, ${venue}, ${dayOf},
      case k.dimension when 'is_mobile' then ${label("is_mobile")} when 'os' then ${label("os")} when 'brand' then ${label("brand")} else ${label("browser")} end,
      ${sign} * count(*), ${sign} * count(c.authorized_at)
    from connections c join organizations zo on zo.id = c.organization_id, ${DIMENSIONS} k, (select 0 as level union all select 1) v
    where c.device_id = ${r}.id and k.dimension <> 'mode'
    group by c.organization_id, k.dimension, ${venue}, ${dayOf}
    order by 2, 3, 4
    on conflict (organization_id, dimension, venue_id, day_start, value) do update set ${add("dimension_daily", ["footfall", "connections"])}`;
}

const paused = (t: Trigger) => `exists (select 1 from analytics_paused ap where ap.organization_id = ${t.organization})`;
const skipped = (t: Trigger) => [t.organization && paused(t), t.skipIf && `(${t.skipIf})`].filter(Boolean).join(" or ");

export function sqliteTriggerDdl(t: Trigger): string {
  const conditions = [t.when && `(${t.when})`, skipped(t) && `not (${skipped(t)})`].filter(Boolean);
  return `create trigger ${t.name} ${t.timing} ${t.event} on ${t.table} for each row
    ${conditions.length ? `when ${conditions.join(" and ")}` : ""}
    begin ${t.statements.map((s) => `${s};`).join("\n")} end`;
}

export function postgresTriggerDdl(t: Trigger): string[] {
  if (t.perStatement) {
    return [
      `create or replace function ${t.name}() returns trigger language plpgsql as $$
       begin
         ${t.statements.map((s) => `${s};`).join("\n")}
         return null;
       end $$`,
      `create trigger ${t.name} ${t.timing} ${t.event} on ${t.table} referencing old table as old_rows new table as new_rows for each statement execute function ${t.name}()`,
    ];
  }
  const result = t.timing === "after" ? "null" : t.event === "delete" ? "OLD" : "NEW";
  return [
    `create or replace function ${t.name}() returns trigger language plpgsql as $$
     begin
       ${skipped(t) ? `if ${skipped(t)} then return ${result}; end if;` : ""}
       ${t.pgLock ? `${t.pgLock};` : ""}
       ${t.statements.map((s) => `${s};`).join("\n")}
       return ${result};
     end $$`,
    `create trigger ${t.name} ${t.timing} ${t.event} on ${t.table} for each row ${t.when ? `when (${t.when})` : ""} execute function ${t.name}()`,
  ];
}

/**
 * Moves a database from the triggers `from` to the triggers `to`: each of `to` is (re)created, each
 * of `from` that `to` has no trigger of the same name for is dropped (with its function on PostgreSQL).
 */
export async function switchTriggers(db: Kysely<any>, fromAll: readonly Trigger[], toAll: readonly Trigger[]): Promise<void> {
  const postgres = isPostgres(db);
  const here = (t: Trigger) => !t.only || t.only === (postgres ? "postgres" : "sqlite");
  const from = fromAll.filter(here);
  const to = toAll.filter(here);
  for (const trigger of to) {
    await sql.raw(`drop trigger if exists ${trigger.name}${postgres ? ` on ${trigger.table}` : ""}`).execute(db);
    for (const statement of postgres ? postgresTriggerDdl(trigger) : [sqliteTriggerDdl(trigger)]) await sql.raw(statement).execute(db);
  }
  const kept = new Set(to.map((t) => t.name));
  for (const trigger of [...from].reverse().filter((t) => !kept.has(t.name))) {
    await sql.raw(`drop trigger if exists ${trigger.name}${postgres ? ` on ${trigger.table}` : ""}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${trigger.name}()`).execute(db);
  }
}
