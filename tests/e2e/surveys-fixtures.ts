// Browser-test data for surveys: an organisation with a network (tests/e2e
// portal-fixtures.ts), and reads of what the console and the guest stored. Every test makes its own
// organisation.
import { makePortal } from "./portal-fixtures";

const { db } = await import("~/db/db.server");

export const { SURVEY_MESSAGES } = await import("~/lib/schemas/surveys");

/** An organisation, its owner and one network with an access point (for the guest's visit). */
export const makeSurveyOrg = () => makePortal();

export async function surveyByTitle(orgId: number, title: string) {
  return db
    .selectFrom("surveys")
    .select(["id", "title", "start_date", "end_date"])
    .where("organization_id", "=", orgId)
    .where("title", "=", title)
    .executeTakeFirst();
}

export async function liveQuestions(surveyId: number) {
  const rows = await db
    .selectFrom("survey_questions")
    .select(["id", "question_text", "question_type", "options"])
    .where("survey_id", "=", surveyId)
    .where("removed_at", "is", null)
    .orderBy("position")
    .execute();
  return rows.map((r) => ({ id: Number(r.id), text: r.question_text, type: r.question_type, options: JSON.parse(r.options) as string[] }));
}

export async function responsesOf(surveyId: number) {
  return db
    .selectFrom("survey_responses")
    .select(["question_id", "answer", "customer_id", "connection_id"])
    .where("survey_id", "=", surveyId)
    .orderBy("id")
    .execute();
}

export const todayUtc = () => new Date().toISOString().slice(0, 10);
