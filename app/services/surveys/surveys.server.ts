// Surveys (docs/guide/surveys.md#routes, #create-survey, docs/guide/api.md#survey-service):
// the list, a survey with its questions and networks, create, edit, delete. Every
// function takes the guard's context and filters by ctx.org.id (another organisation's survey is a
// 404); view_surveys to read, edit_surveys to change.
import { db } from "~/db/db.server";
import { containsText, inIds } from "~/db/sql.server";
import type { SurveyQuestionType } from "~/db/schema";
import { todayIso } from "~/lib/date-range";
import { SURVEY_MESSAGES, surveyStatus, type SurveyInput, type SurveyStatus } from "~/lib/schemas/surveys";
import { notFound, requirePermission, type OrgContext } from "../guard.server";

export interface SurveyQuestion {
  id: number;
  question_text: string;
  question_type: SurveyQuestionType;
  options: string[];
}

export interface SurveySummary {
  id: number;
  title: string;
  description: string | null;
  start_date: string;
  end_date: string;
  status: SurveyStatus;
  created_at: number;
}

export interface SurveyRecord extends SurveySummary {
  questions: SurveyQuestion[];
  /** Networks it runs on; empty: every network of the organisation. */
  venues: { id: number; name: string }[];
}

const SUMMARY_COLUMNS = [
  "surveys.id",
  "surveys.title",
  "surveys.description",
  "surveys.start_date",
  "surveys.end_date",
  "surveys.created_at",
] as const;

type SummaryRow = {
  id: number;
  title: string;
  description: string | null;
  start_date: string;
  end_date: string;
  created_at: number | string;
};

function toSummary(r: SummaryRow, today: string): SurveySummary {
  return {
    id: Number(r.id),
    title: r.title,
    description: r.description,
    start_date: r.start_date,
    end_date: r.end_date,
    status: surveyStatus(r, today),
    created_at: Number(r.created_at),
  };
}

export function parseStoredOptions(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** surveys: newest first (docs/guide/surveys.md#survey-list), searched by title or description. */
export async function listSurveys(
  ctx: OrgContext,
  params: { offset: number; pageSize: number; search?: string | null },
  now = Date.now(),
): Promise<{ rows: SurveySummary[]; total: number }> {
  requirePermission(ctx, "view_surveys");
  let query = db.selectFrom("surveys").where("surveys.organization_id", "=", ctx.org.id);
  if (params.search) {
    const search = params.search;
    query = query.where((eb) => eb.or([containsText("surveys.title", search), containsText("surveys.description", search)]));
  }
  const [rows, total] = await Promise.all([
    query
      .select([...SUMMARY_COLUMNS])
      .orderBy("surveys.created_at", "desc")
      .orderBy("surveys.id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const today = todayIso(now);
  return { rows: rows.map((r) => toSummary(r, today)), total: Number(total.n) };
}

/** The report's survey picker: every survey of the organisation, newest first (id and title). */
export async function surveyChoices(ctx: OrgContext): Promise<{ id: number; title: string }[]> {
  requirePermission(ctx, "view_surveys");
  const rows = await db
    .selectFrom("surveys")
    .select(["id", "title"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1000)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), title: r.title }));
}

/** The organisation's survey (without a permission check: callers check theirs first). */
export async function findSurvey(ctx: OrgContext, surveyId: number | null, now = Date.now()): Promise<SurveyRecord> {
  if (surveyId === null) notFound(SURVEY_MESSAGES.notFound);
  const row = await db
    .selectFrom("surveys")
    .select([...SUMMARY_COLUMNS])
    .where("surveys.organization_id", "=", ctx.org.id)
    .where("surveys.id", "=", surveyId)
    .executeTakeFirst();
  if (!row) notFound(SURVEY_MESSAGES.notFound);
  const [questions, venues] = await Promise.all([
    db
      .selectFrom("survey_questions")
      .select(["id", "question_text", "question_type", "options"])
      .where("survey_id", "=", row.id)
      .where("removed_at", "is", null)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("survey_venues")
      .innerJoin("venues", "venues.id", "survey_venues.venue_id")
      .select(["venues.id", "venues.name"])
      .where("survey_venues.survey_id", "=", row.id)
      .orderBy("venues.name")
      .execute(),
  ]);
  return {
    ...toSummary(row, todayIso(now)),
    questions: questions.map((q) => ({
      id: Number(q.id),
      question_text: q.question_text,
      question_type: q.question_type,
      options: parseStoredOptions(q.options),
    })),
    venues: venues.map((v) => ({ id: Number(v.id), name: v.name })),
  };
}

export async function getSurvey(ctx: OrgContext, surveyId: number | null): Promise<SurveyRecord> {
  requirePermission(ctx, "view_surveys");
  return findSurvey(ctx, surveyId);
}

/** The organisation's networks, for the "Runs on" choice. */
export async function venueChoices(ctx: OrgContext): Promise<{ id: number; name: string }[]> {
  const rows = await db
    .selectFrom("venues")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .orderBy("name")
    .limit(1000)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

export type SaveOutcome = { ok: true; id: number } | { ok: false; errors: Record<string, string[]> };

/** Networks named by the input that are not the organisation's (a field error, not a 404). */
async function foreignVenues(ctx: OrgContext, ids: number[]): Promise<boolean> {
  if (ids.length === 0) return false;
  const own = await db.selectFrom("venues").select("id").where("organization_id", "=", ctx.org.id).where(inIds("id", ids)).execute();
  return own.length !== ids.length;
}

export async function createSurvey(ctx: OrgContext, input: SurveyInput, now = Date.now()): Promise<SaveOutcome> {
  requirePermission(ctx, "edit_surveys");
  if (await foreignVenues(ctx, input.venues)) return { ok: false, errors: { venues: [SURVEY_MESSAGES.foreignVenue] } };
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("surveys")
      .values({
        organization_id: ctx.org.id,
        title: input.title,
        description: input.description,
        start_date: input.start_date,
        end_date: input.end_date,
        created_by_user_id: ctx.user.id,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const surveyId = Number(row.id);
    await trx
      .insertInto("survey_questions")
      .values(
        input.questions.map((q, i) => ({
          survey_id: surveyId,
          position: i,
          question_text: q.question_text,
          question_type: q.question_type,
          options: JSON.stringify(q.options),
          removed_at: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    if (input.venues.length)
      await trx
        .insertInto("survey_venues")
        .values(input.venues.map((v) => ({ survey_id: surveyId, venue_id: v })))
        .execute();
    return surveyId;
  });
  return { ok: true, id };
}

/**
 * Saves an edit: questions that keep their id are updated in place (their answers stay tied to them),
 * new ones are added, the ones left out are removed from the survey (no longer asked; their answers
 * stay in the report). An id that is not one of this survey's questions is taken as a new question.
 */
export async function updateSurvey(ctx: OrgContext, surveyId: number, input: SurveyInput, now = Date.now()): Promise<SaveOutcome> {
  requirePermission(ctx, "edit_surveys");
  const survey = await findSurvey(ctx, surveyId);
  if (await foreignVenues(ctx, input.venues)) return { ok: false, errors: { venues: [SURVEY_MESSAGES.foreignVenue] } };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("surveys")
      .set({ title: input.title, description: input.description, start_date: input.start_date, end_date: input.end_date, updated_at: now })
      .where("id", "=", survey.id)
      .where("organization_id", "=", ctx.org.id)
      .execute();
    const existing = new Set(survey.questions.map((q) => q.id));
    const kept = new Set<number>();
    for (const [i, q] of input.questions.entries()) {
      const values = {
        position: i,
        question_text: q.question_text,
        question_type: q.question_type,
        options: JSON.stringify(q.options),
        updated_at: now,
      };
      if (q.id !== undefined && existing.has(q.id) && !kept.has(q.id)) {
        kept.add(q.id);
        await trx.updateTable("survey_questions").set(values).where("id", "=", q.id).where("survey_id", "=", survey.id).execute();
      } else {
        await trx
          .insertInto("survey_questions")
          .values({ ...values, survey_id: survey.id, removed_at: null, created_at: now })
          .execute();
      }
    }
    const removed = [...existing].filter((id) => !kept.has(id));
    if (removed.length)
      await trx
        .updateTable("survey_questions")
        .set({ removed_at: now, updated_at: now })
        .where("survey_id", "=", survey.id)
        .where(inIds("id", removed))
        .execute();
    await trx.deleteFrom("survey_venues").where("survey_id", "=", survey.id).execute();
    if (input.venues.length)
      await trx
        .insertInto("survey_venues")
        .values(input.venues.map((v) => ({ survey_id: survey.id, venue_id: v })))
        .execute();
  });
  return { ok: true, id: survey.id };
}

/** Deletes the survey with its questions and answers. */
export async function deleteSurvey(ctx: OrgContext, surveyId: number | null): Promise<void> {
  requirePermission(ctx, "edit_surveys");
  const survey = await findSurvey(ctx, surveyId);
  await db.deleteFrom("surveys").where("id", "=", survey.id).where("organization_id", "=", ctx.org.id).execute();
}

/** A survey as its form shows it. */
export function surveyFormValues(s: SurveyRecord) {
  return {
    title: s.title,
    description: s.description ?? "",
    start_date: s.start_date,
    end_date: s.end_date,
    venues: s.venues.map((v) => String(v.id)),
    questions: s.questions.map((q) => ({
      id: String(q.id),
      question_text: q.question_text,
      question_type: q.question_type,
      options: q.options.join(", "),
    })),
  };
}

/** The API's and the GraphQL-free JSON shape of a survey (docs/guide/surveys.md#create-survey). */
export function surveyJson(s: SurveySummary & Partial<Pick<SurveyRecord, "questions" | "venues">>) {
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    start_date: s.start_date,
    end_date: s.end_date,
    status: s.status,
    created_at: new Date(s.created_at).toISOString(),
    ...(s.venues ? { venues: s.venues } : {}),
    ...(s.questions ? { questions: s.questions } : {}),
  };
}
