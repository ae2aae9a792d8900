import { sql, type Kysely } from "kysely";
import { cascade, isPostgres, withId, withTimestamps } from "./_dialect";

// Surveys (docs/guide/surveys.md#create-survey, #survey-report): the survey with
// its dates (YYYY-MM-DD, UTC days, inclusive; the status is derived from them, never stored), its
// questions in order, the networks it runs on (no row: every network), one participation per
// (survey, customer) — answered or skipped, the guarantee that a guest is asked once — and one
// response row per answer (a checkbox question gives one row per ticked option).
export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withId(db, db.schema.createTable("surveys"))
      .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("start_date", "text", (c) => c.notNull()) // YYYY-MM-DD
      .addColumn("end_date", "text", (c) => c.notNull()) // YYYY-MM-DD, inclusive
      .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null")),
  ).execute();
  await db.schema.createIndex("surveys_org_created").on("surveys").columns(["organization_id", "created_at"]).execute();

  await withTimestamps(
    withId(db, db.schema.createTable("survey_questions"))
      .addColumn("survey_id", "integer", (c) => cascade(c.notNull().references("surveys.id")))
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("question_text", "text", (c) => c.notNull())
      .addColumn("question_type", "text", (c) => c.notNull()) // text | multiple | checkbox | dropdown | rating
      .addColumn("options", "text", (c) => c.notNull()) // JSON array of strings; [] for text and rating
      // Removed in an edit: no longer asked, its answers stay in the report.
      .addColumn("removed_at", "bigint"),
  ).execute();
  await db.schema.createIndex("survey_questions_survey").on("survey_questions").columns(["survey_id", "position"]).execute();

  await db.schema
    .createTable("survey_venues")
    .addColumn("survey_id", "integer", (c) => cascade(c.notNull().references("surveys.id")))
    .addColumn("venue_id", "integer", (c) => cascade(c.notNull().references("venues.id")))
    .addPrimaryKeyConstraint("survey_venues_pk", ["survey_id", "venue_id"])
    .execute();
  await db.schema.createIndex("survey_venues_venue").on("survey_venues").columns(["venue_id"]).execute();

  await withId(db, db.schema.createTable("survey_participations"), true)
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("survey_id", "integer", (c) => cascade(c.notNull().references("surveys.id")))
    .addColumn("customer_id", "integer", (c) => cascade(c.notNull().references("customers.id")))
    .addColumn("connection_id", "bigint") // no foreign key: connections may be archived
    .addColumn("status", "text", (c) => c.notNull()) // answered | skipped
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  // Once per customer: a second answer (another tab, a replayed form) is refused by this index.
  await db.schema
    .createIndex("survey_participations_once")
    .on("survey_participations")
    .columns(["survey_id", "customer_id"])
    .unique()
    .execute();
  await db.schema.createIndex("survey_participations_customer").on("survey_participations").columns(["customer_id"]).execute();

  await withId(db, db.schema.createTable("survey_responses"), true)
    .addColumn("organization_id", "integer", (c) => cascade(c.notNull().references("organizations.id")))
    .addColumn("survey_id", "integer", (c) => cascade(c.notNull().references("surveys.id")))
    .addColumn("question_id", "integer", (c) => cascade(c.notNull().references("survey_questions.id")))
    .addColumn("customer_id", "integer", (c) => c.references("customers.id").onDelete("set null"))
    .addColumn("connection_id", "bigint")
    .addColumn("answer", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  // The report: one survey's answers in a date range, newest first; page 1 reads the top of this
  // index, the last page its bottom (read in reverse), the CSV walks it by keyset.
  await db.schema.createIndex("survey_responses_report").on("survey_responses").columns(["survey_id", "created_at", "id"]).execute();
  await db.schema.createIndex("survey_responses_question").on("survey_responses").columns(["question_id"]).execute();

  // The report's figures per UTC day, kept by a trigger on every answer stored: answers per (question,
  // answer) — text answers under '' (only their number is summarised). The report's total (for paging
  // from the last page) and its per-question summaries are sums over a few rows per day instead of a
  // scan of every answer. Answers are only ever inserted; they go, with these rows, when their survey goes.
  await db.schema
    .createTable("survey_answer_days")
    .addColumn("survey_id", "integer", (c) => cascade(c.notNull().references("surveys.id")))
    .addColumn("question_id", "integer", (c) => c.notNull())
    .addColumn("day", "integer", (c) => c.notNull()) // created_at / 86400000
    .addColumn("answer", "text", (c) => c.notNull())
    .addColumn("responses", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("survey_answer_days_pk", ["survey_id", "day", "question_id", "answer"])
    .execute();
  const count = `insert into survey_answer_days (survey_id, question_id, day, answer, responses)
    values (NEW.survey_id, NEW.question_id, NEW.created_at / 86400000,
      case when (select q.question_type from survey_questions q where q.id = NEW.question_id) = 'text' then '' else NEW.answer end, 1)
    on conflict (survey_id, day, question_id, answer) do update set responses = survey_answer_days.responses + excluded.responses`;
  if (isPostgres(db)) {
    await sql`${sql.raw(`create or replace function survey_answer_days_count() returns trigger language plpgsql as $$ begin ${count}; return null; end $$`)}`.execute(
      db,
    );
    await sql`${sql.raw("create trigger survey_answer_days_count after insert on survey_responses for each row execute function survey_answer_days_count()")}`.execute(
      db,
    );
  } else {
    await sql`${sql.raw(`create trigger survey_answer_days_count after insert on survey_responses for each row begin ${count}; end`)}`.execute(
      db,
    );
  }
  await db.schema.createIndex("survey_responses_customer").on("survey_responses").columns(["customer_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists survey_answer_days_count on survey_responses`.execute(db);
    await sql`drop function if exists survey_answer_days_count()`.execute(db);
  }
  for (const table of ["survey_answer_days", "survey_responses", "survey_participations", "survey_venues", "survey_questions", "surveys"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
