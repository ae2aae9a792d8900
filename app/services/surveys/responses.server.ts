// The survey report (docs/guide/surveys.md#survey-report, docs/guide/api.md#survey-service):
// one survey's answers in a date range, newest first, with the answering customer's
// name and contacts (view_clients, like every list of guests' details), per-question summaries, and
// the exports: surveys.csv (every row, streamed in keyset batches) and the XLSX of one page.
//
// Paging at 200,000 answers (bench/surveys.bench.ts): the total and the summaries are sums over
// survey_answer_days (a few rows per day, kept by a trigger on every answer), and the index
// (survey_id, created_at, id) is read from the nearer end, so page 1 and the last page both cost a
// short index walk; only the middle pages pay for an offset.
import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { ExpressionBuilder } from "kysely";
import { db } from "~/db/db.server";
import { before } from "~/db/sql.server";
import type { DB } from "~/db/schema";
import { csvCell, csvHeader, plainText } from "~/lib/csv-line";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { RATING_MAX, RATING_MIN, RESPONSE_COLUMNS, XLSX_SHEET, type ResponsesQuery } from "~/lib/schemas/surveys";
import { formatDateTime, withZone } from "~/lib/time";
import { requirePermission, type OrgContext } from "../guard.server";
import { findSurvey, parseStoredOptions } from "./surveys.server";

const DAY_MS = 86_400_000;

export interface ResponseRow {
  id: number;
  surveyquestion: string;
  surveyresponse: string;
  firstname: string | null;
  lastname: string | null;
  email: string | null;
  phonenumber: string | null;
  question_id: number;
  created_at: number;
}

export interface ResponsesPage {
  survey: { id: number; title: string };
  rows: ResponseRow[];
  pagination: { total: number; per_page: number; current_page: number; last_page: number };
}

/** The range of a query's days: start 00:00 (inclusive) to the day after the end (exclusive); open ends. */
function rangeOf(q: Pick<ResponsesQuery, "start_date" | "end_date">): { from: number | null; to: number | null } {
  return {
    from: q.start_date ? Date.parse(`${q.start_date}T00:00:00Z`) : null,
    to: q.end_date ? Date.parse(`${q.end_date}T00:00:00Z`) + DAY_MS : null,
  };
}

function inRange(surveyId: number, range: { from: number | null; to: number | null }) {
  return (eb: ExpressionBuilder<DB, "survey_responses">) => {
    const conditions = [eb("survey_responses.survey_id", "=", surveyId)];
    if (range.from !== null) conditions.push(eb("survey_responses.created_at", ">=", range.from));
    if (range.to !== null) conditions.push(eb("survey_responses.created_at", "<", range.to));
    return eb.and(conditions);
  };
}

const ROW_COLUMNS = [
  "survey_responses.id",
  "survey_responses.answer",
  "survey_responses.created_at",
  "survey_responses.question_id",
  "survey_questions.question_text",
  "customers.first_name",
  "customers.last_name",
  "customers.email_address",
  "customers.phone_number",
] as const;

type RawRow = {
  id: number | string;
  answer: string;
  created_at: number | string;
  question_id: number;
  question_text: string;
  first_name: string | null;
  last_name: string | null;
  email_address: string | null;
  phone_number: string | null;
};

function toRow(r: RawRow, personal: boolean): ResponseRow {
  return {
    id: Number(r.id),
    surveyquestion: r.question_text,
    surveyresponse: r.answer,
    firstname: personal ? r.first_name : null,
    lastname: personal ? r.last_name : null,
    email: personal ? r.email_address : null,
    phonenumber: personal ? r.phone_number : null,
    question_id: Number(r.question_id),
    created_at: Number(r.created_at),
  };
}

const rowsQuery = () =>
  db
    .selectFrom("survey_responses")
    .innerJoin("survey_questions", "survey_questions.id", "survey_responses.question_id")
    .leftJoin("customers", "customers.id", "survey_responses.customer_id")
    .select([...ROW_COLUMNS]);

/** The report's days (from and to are whole UTC days) as survey_answer_days' day numbers. */
function daysOf(surveyId: number, range: { from: number | null; to: number | null }) {
  return (eb: ExpressionBuilder<DB, "survey_answer_days">) => {
    const conditions = [eb("survey_answer_days.survey_id", "=", surveyId)];
    if (range.from !== null) conditions.push(eb("survey_answer_days.day", ">=", Math.floor(range.from / DAY_MS)));
    if (range.to !== null) conditions.push(eb("survey_answer_days.day", "<", Math.floor(range.to / DAY_MS)));
    return eb.and(conditions);
  };
}

/** How many answers the survey has in the range: a sum over the trigger-kept day rows, not a count of answers. */
async function answersInRange(surveyId: number, range: { from: number | null; to: number | null }): Promise<number> {
  const row = await db
    .selectFrom("survey_answer_days")
    .select((eb) => eb.fn.sum<number>("survey_answer_days.responses").as("n"))
    .where(daysOf(surveyId, range))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One page of the report (view_surveys; names and contacts only with view_clients). A foreign or unknown survey is a 404. */
export async function responsesPage(ctx: OrgContext, q: ResponsesQuery): Promise<ResponsesPage> {
  requirePermission(ctx, "view_surveys");
  const survey = await findSurvey(ctx, q.survey_id);
  const range = rangeOf(q);
  const where = inRange(survey.id, range);
  const total = await answersInRange(survey.id, range);
  const perPage = q.per_page;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(q.page, lastPage);
  const offset = (page - 1) * perPage;
  let raw: RawRow[] = [];
  if (offset < total) {
    const take = Math.min(perPage, total - offset);
    if (offset <= total - offset - take) {
      raw = await rowsQuery()
        .where(where)
        .orderBy("survey_responses.created_at", "desc")
        .orderBy("survey_responses.id", "desc")
        .limit(take)
        .offset(offset)
        .execute();
    } else {
      // Nearer the end: read the same rows from the oldest side, then turn them round.
      const fromEnd = total - offset - take;
      raw = (
        await rowsQuery()
          .where(where)
          .orderBy("survey_responses.created_at", "asc")
          .orderBy("survey_responses.id", "asc")
          .limit(take)
          .offset(fromEnd)
          .execute()
      ).reverse();
    }
  }
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  return {
    survey: { id: survey.id, title: survey.title },
    rows: raw.map((r) => toRow(r, personal)),
    pagination: { total, per_page: perPage, current_page: page, last_page: lastPage },
  };
}

export interface QuestionSummary {
  id: number;
  question_text: string;
  question_type: string;
  removed: boolean;
  answers: number;
  /** Option types: answers per option (options first, in their order; other stored answers after). Rating: per score 1–5. */
  counts: { label: string; count: number }[];
  /** Rating: the average score to 2 decimals; null without answers or for other types. */
  average: number | null;
}

/** Per-question summaries over the report's dates: counts per option, average rating (view_surveys). */
export async function questionSummaries(
  ctx: OrgContext,
  q: Pick<ResponsesQuery, "survey_id" | "start_date" | "end_date">,
): Promise<QuestionSummary[]> {
  requirePermission(ctx, "view_surveys");
  const survey = await findSurvey(ctx, q.survey_id);
  const range = rangeOf(q);
  const questions = await db
    .selectFrom("survey_questions")
    .select(["id", "question_text", "question_type", "options", "removed_at"])
    .where("survey_id", "=", survey.id)
    .orderBy("position")
    .orderBy("id")
    .execute();
  const sums = await db
    .selectFrom("survey_answer_days")
    .select([
      "survey_answer_days.question_id",
      "survey_answer_days.answer",
      (eb) => eb.fn.sum<number>("survey_answer_days.responses").as("n"),
    ])
    .where(daysOf(survey.id, range))
    .groupBy(["survey_answer_days.question_id", "survey_answer_days.answer"])
    .execute();
  return questions.map((question) => {
    // Text answers are each their own: only their number is kept (under ''), the table lists them.
    const grouped = sums.filter((r) => Number(r.question_id) === Number(question.id));
    const byAnswer = new Map(grouped.map((g) => [g.answer, Number(g.n)]));
    const answers = grouped.reduce((sum, g) => sum + Number(g.n), 0);
    let counts: { label: string; count: number }[] = [];
    let average: number | null = null;
    if (question.question_type === "rating") {
      counts = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => String(RATING_MIN + i)).map((label) => ({
        label,
        count: byAnswer.get(label) ?? 0,
      }));
      const scored = counts.reduce((sum, c) => sum + c.count, 0);
      average = scored ? Math.round((counts.reduce((sum, c) => sum + Number(c.label) * c.count, 0) / scored) * 100) / 100 : null;
    } else if (question.question_type !== "text") {
      const options = parseStoredOptions(question.options);
      counts = options.map((label) => ({ label, count: byAnswer.get(label) ?? 0 }));
      for (const [label, count] of byAnswer) if (!options.includes(label)) counts.push({ label, count });
    }
    return {
      id: Number(question.id),
      question_text: question.question_text,
      question_type: question.question_type,
      removed: question.removed_at !== null,
      answers,
      counts,
      average,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Exports

/** The header; times are on the organisation's clock (`offsetMs` from UTC), named in the column. */
export const csvHeaderAt = (offsetMs: number) => ["#", ...RESPONSE_COLUMNS, withZone("Answered At", offsetMs)];
const CSV_BATCH = 2_000;

/** Whether the survey has any answer in the range (the exports say so instead of sending an empty file). */
export async function hasResponses(ctx: OrgContext, q: Pick<ResponsesQuery, "survey_id" | "start_date" | "end_date">): Promise<boolean> {
  requirePermission(ctx, "view_surveys");
  const survey = await findSurvey(ctx, q.survey_id);
  const row = await db
    .selectFrom("survey_responses")
    .select("id")
    .where(inRange(survey.id, rangeOf(q)))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * surveys.csv: every answer of the survey in the range, newest first, read in keyset batches on
 * (created_at, id) and written as the client reads, so memory stays flat with the row count. The
 * question texts are read once, not joined per row. Guest-typed text goes through plainText.
 */
export async function responsesCsvStream(
  ctx: OrgContext,
  q: Pick<ResponsesQuery, "survey_id" | "start_date" | "end_date">,
  batchSize = CSV_BATCH,
): Promise<ReadableStream<Uint8Array>> {
  requirePermission(ctx, "view_surveys");
  const survey = await findSurvey(ctx, q.survey_id);
  const range = rangeOf(q);
  // Answers arriving during the export are left out, so numbering stays exact.
  const upTo = Math.min(range.to ?? Infinity, Date.now() + 1);
  const questions = await db.selectFrom("survey_questions").select(["id", "question_text"]).where("survey_id", "=", survey.id).execute();
  const questionText = new Map(questions.map((x) => [Number(x.id), csvCell(x.question_text)]));
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const encoder = new TextEncoder();
  let cursor: { createdAt: number; id: number } | null = null;
  let numbered = 0;
  let started = false;
  let done = false;
  const nextBatch = async (): Promise<string> => {
    let query = db
      .selectFrom("survey_responses")
      .leftJoin("customers", "customers.id", "survey_responses.customer_id")
      .select([
        "survey_responses.id",
        "survey_responses.answer",
        "survey_responses.created_at",
        "survey_responses.question_id",
        "customers.first_name",
        "customers.last_name",
        "customers.email_address",
        "customers.phone_number",
      ])
      .where("survey_responses.survey_id", "=", survey.id)
      .where("survey_responses.created_at", "<", upTo);
    if (range.from !== null) query = query.where("survey_responses.created_at", ">=", range.from);
    if (cursor) {
      const c = cursor;
      query = query.where(before("survey_responses.created_at", "survey_responses.id", c.createdAt, c.id));
    }
    const rows = await query
      .orderBy("survey_responses.created_at", "desc")
      .orderBy("survey_responses.id", "desc")
      .limit(batchSize)
      .execute();
    if (rows.length < batchSize) done = true;
    let chunk = "";
    let minute = Number.NaN;
    let time = "";
    for (const r of rows) {
      const at = Number(r.created_at);
      const m = Math.floor(at / 60_000);
      if (m !== minute) {
        minute = m;
        time = formatDateTime(at, ctx.org.clock.offsetMs);
      }
      numbered += 1;
      chunk +=
        `${numbered},${questionText.get(Number(r.question_id)) ?? ""},${csvCell(r.answer)},` +
        (personal ? `${csvCell(r.first_name)},${csvCell(r.last_name)},${csvCell(r.email_address)},${csvCell(r.phone_number)}` : ",,,") +
        `,${time}\n`;
    }
    const last = rows[rows.length - 1];
    if (last) cursor = { createdAt: Number(last.created_at), id: Number(last.id) };
    return chunk;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvHeader(csvHeaderAt(ctx.org.clock.offsetMs))));
        return;
      }
      if (done) {
        controller.close();
        return;
      }
      const chunk = await nextBatch();
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
  });
}

/**
 * The XLSX of one report page (docs/guide/surveys.md#survey-report: named by the page, sheet "Survey
 * Responses"), written with exceljs's streaming writer: the CSV's columns, answers to rating questions as
 * numbers (a spreadsheet averages them), times on the organisation's clock (`offsetMs`) with the zone in
 * the header.
 */
export function responsesXlsxStream(page: ResponsesPage, offsetMs: number): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(XLSX_SHEET);
  sheet.columns = csvHeaderAt(offsetMs).map((header) => ({ header, width: header === "#" ? 8 : 28 }));
  const first = (page.pagination.current_page - 1) * page.pagination.per_page;
  void (async () => {
    try {
      const ratings = await db
        .selectFrom("survey_questions")
        .select("id")
        .where("survey_id", "=", page.survey.id)
        .where("question_type", "=", "rating")
        .execute();
      const rating = new Set(ratings.map((q) => Number(q.id)));
      page.rows.forEach((r, i) => {
        const answer =
          rating.has(r.question_id) && /^\d{1,2}$/.test(r.surveyresponse) ? Number(r.surveyresponse) : plainText(r.surveyresponse);
        sheet
          .addRow([
            first + i + 1,
            plainText(r.surveyquestion),
            answer,
            text(r.firstname),
            text(r.lastname),
            text(r.email),
            text(r.phonenumber),
            formatDateTime(r.created_at, offsetMs),
          ])
          .commit();
      });
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return Readable.toWeb(out) as unknown as ReadableStream<Uint8Array>;
}

const text = (v: string | null) => (v === null ? "" : plainText(v));
