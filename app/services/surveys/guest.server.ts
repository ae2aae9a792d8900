// Guests answer surveys. After authorization the guest lands on the "online" page; an Active survey
// (docs/guide/surveys.md#survey-list) of the organisation that runs on the connection's network and
// that this customer has neither answered nor skipped is offered there, below "You are online": a
// plain form (no script, no cookie) that carries the connection's token. Answering is optional and
// never blocks anything — the guest is online already. A participation row per (survey, customer),
// unique, makes "once per customer" hold even for two tabs posting at once.
import { db } from "~/db/db.server";
import { isUniqueViolation } from "~/db/sql.server";
import type { SurveyQuestionType } from "~/db/schema";
import { todayIso } from "~/lib/date-range";
import { parseId } from "~/lib/ids";
import { MAX_TEXT_ANSWER, OPTION_TYPES, RATING_MAX, RATING_MIN } from "~/lib/schemas/surveys";
import { hashToken } from "../crypto.server";
import { plausibleToken } from "../portal/connect.server";
import { parseStoredOptions } from "./surveys.server";

export const GUEST_SURVEY_MESSAGES = {
  unknownLink: "This connection link is not valid.",
  expiredLink: "This survey link has expired. Thank you anyway!",
  notOffered: "This survey is not offered on this network.",
  notOpen: "This survey is not open any more. Thank you anyway!",
  alreadyAnswered: "You have already answered this survey. Thank you!",
  thanks: "Thank you for your answers!",
  skipped: "No problem — enjoy the internet.",
  answerOne: "Answer at least one question, or skip the survey.",
  chooseOption: "Choose one of the answers offered.",
  rating: `Choose a rating from ${RATING_MIN} to ${RATING_MAX}.`,
  tooLong: `Keep the answer under ${MAX_TEXT_ANSWER} characters.`,
} as const;

/** An authorized connection can answer for this long after it got online (the token is in the page's URL). */
export const ANSWER_WINDOW_MS = 24 * 3_600_000;

export interface GuestConnection {
  connectionId: number;
  organizationId: number;
  venueId: number | null;
  customerId: number | null;
  authorizedAt: number | null;
}

export interface GuestQuestion {
  id: number;
  text: string;
  type: SurveyQuestionType;
  options: string[];
}

export interface GuestSurvey {
  id: number;
  title: string;
  description: string | null;
  questions: GuestQuestion[];
}

/** The connection of a connect token (its hash is what is stored), or null. */
export async function guestConnection(token: string | null | undefined): Promise<GuestConnection | null> {
  if (!plausibleToken(token)) return null;
  const row = await db
    .selectFrom("connections")
    .select(["id", "organization_id", "venue_id", "customer_id", "authorized_at"])
    .where("token", "=", hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  return {
    connectionId: Number(row.id),
    organizationId: row.organization_id,
    venueId: row.venue_id,
    customerId: row.customer_id,
    authorizedAt: row.authorized_at === null ? null : Number(row.authorized_at),
  };
}

async function questionsOf(surveyId: number): Promise<GuestQuestion[]> {
  const rows = await db
    .selectFrom("survey_questions")
    .select(["id", "question_text", "question_type", "options"])
    .where("survey_id", "=", surveyId)
    .where("removed_at", "is", null)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map((q) => ({ id: Number(q.id), text: q.question_text, type: q.question_type, options: parseStoredOptions(q.options) }));
}

/**
 * The survey to offer this connection's customer now, or null: Active today (UTC), running on the
 * connection's network (or on all), with questions, neither answered nor skipped by the customer.
 * The oldest-starting one first.
 */
export async function surveyToOffer(connection: GuestConnection, now = Date.now()): Promise<GuestSurvey | null> {
  if (connection.customerId === null || connection.authorizedAt === null || connection.venueId === null) return null;
  if (now - connection.authorizedAt > ANSWER_WINDOW_MS) return null;
  const today = todayIso(now);
  const venueId = connection.venueId;
  const customerId = connection.customerId;
  const survey = await db
    .selectFrom("surveys")
    .select(["surveys.id", "surveys.title", "surveys.description"])
    .where("surveys.organization_id", "=", connection.organizationId)
    .where("surveys.start_date", "<=", today)
    .where("surveys.end_date", ">=", today)
    .where((eb) =>
      eb.or([
        eb.not(
          eb.exists(eb.selectFrom("survey_venues").select("survey_venues.venue_id").whereRef("survey_venues.survey_id", "=", "surveys.id")),
        ),
        eb.exists(
          eb
            .selectFrom("survey_venues")
            .select("survey_venues.venue_id")
            .whereRef("survey_venues.survey_id", "=", "surveys.id")
            .where("survey_venues.venue_id", "=", venueId),
        ),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("survey_participations")
            .select("survey_participations.id")
            .whereRef("survey_participations.survey_id", "=", "surveys.id")
            .where("survey_participations.customer_id", "=", customerId),
        ),
      ),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("survey_questions")
          .select("survey_questions.id")
          .whereRef("survey_questions.survey_id", "=", "surveys.id")
          .where("survey_questions.removed_at", "is", null),
      ),
    )
    .orderBy("surveys.start_date")
    .orderBy("surveys.id")
    .limit(1)
    .executeTakeFirst();
  if (!survey) return null;
  return { id: Number(survey.id), title: survey.title, description: survey.description, questions: await questionsOf(Number(survey.id)) };
}

export type AnswerOutcome =
  | { ok: true; status: "answered" | "skipped" }
  | { ok: false; status: number; message: string }
  | { ok: false; status: 422; survey: GuestSurvey; errors: Record<string, string>; values: Record<string, string[]>; message?: string };

/** A form field's values: one string, several (checkboxes), or none. */
function valuesOf(body: Record<string, unknown>, name: string): string[] {
  const raw = body[name];
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.filter((v): v is string => typeof v === "string");
}

/** Checks the answers of the form against the survey's questions: the answers to store, or the errors per field. */
export function checkAnswers(
  survey: GuestSurvey,
  body: Record<string, unknown>,
): { answers: { questionId: number; answer: string }[]; errors: Record<string, string>; values: Record<string, string[]> } {
  const answers: { questionId: number; answer: string }[] = [];
  const errors: Record<string, string> = {};
  const values: Record<string, string[]> = {};
  for (const q of survey.questions) {
    const name = `q${q.id}`;
    const given = valuesOf(body, name)
      .map((v) => v.trim())
      .filter(Boolean);
    values[name] = given.map((v) => v.slice(0, MAX_TEXT_ANSWER));
    if (given.length === 0) continue;
    if (q.type === "text") {
      if (given.length > 1 || given[0]!.length > MAX_TEXT_ANSWER) errors[name] = GUEST_SURVEY_MESSAGES.tooLong;
      else answers.push({ questionId: q.id, answer: given[0]! });
    } else if (q.type === "rating") {
      const score = given.length === 1 && /^\d$/.test(given[0]!) ? Number(given[0]) : Number.NaN;
      if (!(score >= RATING_MIN && score <= RATING_MAX)) errors[name] = GUEST_SURVEY_MESSAGES.rating;
      else answers.push({ questionId: q.id, answer: String(score) });
    } else if (OPTION_TYPES.includes(q.type)) {
      const chosen = [...new Set(given)];
      if (chosen.some((c) => !q.options.includes(c)) || (q.type !== "checkbox" && chosen.length > 1))
        errors[name] = GUEST_SURVEY_MESSAGES.chooseOption;
      else for (const c of chosen) answers.push({ questionId: q.id, answer: c });
    }
  }
  return { answers, errors, values };
}

/**
 * Stores a guest's answers (intent "answer") or their choice to skip (intent "skip"), once per
 * customer. Refuses a token that is unknown or not online, a survey of another organisation or
 * network, a survey not Active today, and a survey the customer already answered or skipped.
 */
export async function answerSurvey(
  input: { token: unknown; surveyId: unknown; intent: unknown; body: Record<string, unknown> },
  now = Date.now(),
): Promise<AnswerOutcome> {
  const connection = await guestConnection(typeof input.token === "string" ? input.token : null);
  if (!connection || connection.authorizedAt === null || connection.customerId === null || connection.venueId === null) {
    return { ok: false, status: 404, message: GUEST_SURVEY_MESSAGES.unknownLink };
  }
  if (now - connection.authorizedAt > ANSWER_WINDOW_MS) return { ok: false, status: 410, message: GUEST_SURVEY_MESSAGES.expiredLink };
  const surveyId = parseId(input.surveyId);
  const survey =
    surveyId === null
      ? undefined
      : await db
          .selectFrom("surveys")
          .select(["id", "title", "description", "start_date", "end_date"])
          .where("id", "=", surveyId)
          .where("organization_id", "=", connection.organizationId)
          .executeTakeFirst();
  if (!survey) return { ok: false, status: 404, message: GUEST_SURVEY_MESSAGES.notOffered };
  const networks = await db.selectFrom("survey_venues").select("venue_id").where("survey_id", "=", survey.id).execute();
  if (networks.length > 0 && !networks.some((n) => n.venue_id === connection.venueId))
    return { ok: false, status: 403, message: GUEST_SURVEY_MESSAGES.notOffered };
  const today = todayIso(now);
  if (today < survey.start_date || today > survey.end_date) return { ok: false, status: 410, message: GUEST_SURVEY_MESSAGES.notOpen };
  const already = await db
    .selectFrom("survey_participations")
    .select("id")
    .where("survey_id", "=", survey.id)
    .where("customer_id", "=", connection.customerId)
    .executeTakeFirst();
  if (already) return { ok: false, status: 409, message: GUEST_SURVEY_MESSAGES.alreadyAnswered };

  const skip = input.intent === "skip";
  const guestSurvey: GuestSurvey = {
    id: Number(survey.id),
    title: survey.title,
    description: survey.description,
    questions: await questionsOf(Number(survey.id)),
  };
  let answers: { questionId: number; answer: string }[] = [];
  if (!skip) {
    const checked = checkAnswers(guestSurvey, input.body);
    if (Object.keys(checked.errors).length)
      return { ok: false, status: 422, survey: guestSurvey, errors: checked.errors, values: checked.values };
    if (checked.answers.length === 0)
      return { ok: false, status: 422, survey: guestSurvey, errors: {}, values: checked.values, message: GUEST_SURVEY_MESSAGES.answerOne };
    answers = checked.answers;
  }
  const customerId = connection.customerId;
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("survey_participations")
        .values({
          organization_id: connection.organizationId,
          survey_id: guestSurvey.id,
          customer_id: customerId,
          connection_id: connection.connectionId,
          status: skip ? "skipped" : "answered",
          created_at: now,
        })
        .execute();
      if (answers.length) {
        await trx
          .insertInto("survey_responses")
          .values(
            answers.map((a) => ({
              organization_id: connection.organizationId,
              survey_id: guestSurvey.id,
              question_id: a.questionId,
              customer_id: customerId,
              connection_id: connection.connectionId,
              answer: a.answer,
              created_at: now,
            })),
          )
          .execute();
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, message: GUEST_SURVEY_MESSAGES.alreadyAnswered };
    throw error;
  }
  return { ok: true, status: skip ? "skipped" : "answered" };
}
