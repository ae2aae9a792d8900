// The demo's survey: one Active survey on every network, made through the survey
// service as an operator would, and answers from guests who got online in the last weeks (one
// participation each, as the online page's form stores them), so the report has pages, charts and
// exports to show.
import { db } from "~/db/db.server";
import { todayIso } from "~/lib/date-range";
import { surveySchema } from "~/lib/schemas/surveys";
import type { OrgContext } from "~/services/guard.server";
import { createSurvey } from "~/services/surveys/surveys.server";

const DAY = 86_400_000;
const COMMENTS = ["Fast Wi-Fi, thanks!", "Great coffee.", "Could be faster in the evening.", "Easy to connect.", "Loved the music."];

export async function createDemoSurveys(ctx: OrgContext, now: number): Promise<number> {
  const created = await createSurvey(
    ctx,
    surveySchema.parse({
      title: "How was your visit?",
      description: "Three quick questions about today.",
      start_date: todayIso(now - 30 * DAY),
      end_date: todayIso(now + 30 * DAY),
      questions: [
        { question_text: "How would you rate the Wi-Fi?", question_type: "rating" },
        { question_text: "What brought you here today?", question_type: "multiple", options: "Coffee, Work, Meeting friends, Passing by" },
        { question_text: "Anything we could do better?", question_type: "text" },
      ],
    }),
    now,
  );
  if (!created.ok) throw new Error(`demo survey not created: ${JSON.stringify(created.errors)}`);
  const questions = await db
    .selectFrom("survey_questions")
    .select(["id", "question_type"])
    .where("survey_id", "=", created.id)
    .orderBy("position")
    .execute();
  // The last authorized connection of up to 120 customers in the survey's weeks.
  const guests = await db
    .selectFrom("connections")
    .select(["customer_id", (eb) => eb.fn.max("id").as("connection_id"), (eb) => eb.fn.max("authorized_at").as("at")])
    .where("organization_id", "=", ctx.org.id)
    .where("authorized_at", ">=", now - 30 * DAY)
    .where("customer_id", "is not", null)
    .groupBy("customer_id")
    .limit(120)
    .execute();
  const options = ["Coffee", "Work", "Meeting friends", "Passing by"];
  for (const [i, g] of guests.entries()) {
    const at = Number(g.at);
    await db
      .insertInto("survey_participations")
      .values({
        organization_id: ctx.org.id,
        survey_id: created.id,
        customer_id: g.customer_id!,
        connection_id: Number(g.connection_id),
        status: i % 10 === 9 ? "skipped" : "answered",
        created_at: at,
      })
      .execute();
    if (i % 10 === 9) continue;
    const answers = [
      String([5, 4, 4, 3, 5, 2, 4][i % 7]),
      options[(i * 3) % options.length]!,
      ...(i % 3 === 0 ? [COMMENTS[i % COMMENTS.length]!] : []),
    ];
    await db
      .insertInto("survey_responses")
      .values(
        answers.map((answer, k) => ({
          organization_id: ctx.org.id,
          survey_id: created.id,
          question_id: Number(questions[k]!.id),
          customer_id: g.customer_id,
          connection_id: Number(g.connection_id),
          answer,
          created_at: at,
        })),
      )
      .execute();
  }
  return guests.length;
}
