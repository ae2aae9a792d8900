// Guests answer surveys on the "online" page, over real HTTP against the built
// server, on SQLite and PostgreSQL: the offer (Active, this network or all, once per customer), the
// plain form, answers stored against the customer and the connection, and every refusal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { hashToken } from "~/services/crypto.server";
import { todayIso } from "~/lib/date-range";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { enter, makeNetwork, merakiQuery, mlangoEntryPath, postForm, randomMac } from "../fixtures/portal";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => {
  await server?.close();
});

const DAY = 86_400_000;
const dayOffset = (n: number) => todayIso(Date.now() + n * DAY);
const SIGNUP = {
  mode: "SIGNUP",
  first_name: "Amina",
  last_name: "Otieno",
  email_address: "amina@example.com",
  phone_number: "0712 345 678",
};

async function makeSurvey(
  orgId: number,
  { start = dayOffset(-1), end = dayOffset(1), venues = [] as number[], title = "Visit survey" } = {},
) {
  const now = Date.now();
  const survey = await db
    .insertInto("surveys")
    .values({
      organization_id: orgId,
      title,
      description: "Two minutes",
      start_date: start,
      end_date: end,
      created_by_user_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const questions = [
    { question_text: "Rate the Wi-Fi", question_type: "rating" as const, options: [] as string[] },
    { question_text: "Why are you here?", question_type: "multiple" as const, options: ["Coffee", "Work"] },
    { question_text: "What did you eat?", question_type: "checkbox" as const, options: ["Cake", "Soup", "Salad"] },
    { question_text: "Anything else?", question_type: "text" as const, options: [] as string[] },
  ];
  const ids: number[] = [];
  for (const [i, q] of questions.entries()) {
    const row = await db
      .insertInto("survey_questions")
      .values({
        survey_id: survey.id,
        position: i,
        question_text: q.question_text,
        question_type: q.question_type,
        options: JSON.stringify(q.options),
        removed_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
  }
  for (const v of venues) await db.insertInto("survey_venues").values({ survey_id: survey.id, venue_id: v }).execute();
  return { id: Number(survey.id), q: ids };
}

/** A guest who went through the connect page and is online; their token. */
async function onlineGuest(
  portalKey: string,
  apMac: string,
  clientMac = randomMac(),
  signup: Record<string, string> = SIGNUP,
  /** the entry to go through (default: Meraki's redirect) */
  path = `/hotspot/meraki/${portalKey}?${merakiQuery(apMac, clientMac)}`,
) {
  const entry = await enter(server.origin, path);
  const token = entry.token!;
  const authorized = await postForm(server.origin, "/connect", { token, ...signup });
  expect(authorized.status).toBe(303);
  return token;
}

const onlinePage = async (token: string) => (await fetch(`${server.origin}/connect/online?token=${token}`)).text();
const connectionOf = (token: string) =>
  db.selectFrom("connections").select(["id", "customer_id"]).where("token", "=", hashToken(token)).executeTakeFirstOrThrow();

async function world() {
  const { org } = await makeOrg(`Guest surveys ${Math.random().toString(36).slice(2, 8)}`);
  const network = await makeNetwork(org.id);
  return { org, ...network };
}

describe("guests answer surveys", () => {
  it("offers the Active survey on the online page as a plain form and stores the answers against customer and connection, once", async () => {
    const { org, venue, ap } = await world();
    const survey = await makeSurvey(org.id);
    const token = await onlineGuest(venue.portal_key, ap.mac_address);
    const page = await onlinePage(token);
    expect(page).toContain("You are online");
    expect(page).toContain('action="/connect/survey"');
    expect(page).toContain("Rate the Wi-Fi");
    expect(page).not.toContain("<script");
    const [rating, multiple, checkbox, text] = survey.q;
    const body = new URLSearchParams({
      token,
      survey_id: String(survey.id),
      intent: "answer",
      [`q${rating}`]: "4",
      [`q${multiple}`]: "Work",
      [`q${text}`]: "Great <b>coffee</b>",
    });
    body.append(`q${checkbox}`, "Cake");
    body.append(`q${checkbox}`, "Soup");
    const answered = await fetch(`${server.origin}/connect/survey`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "null" },
      body,
    });
    expect(answered.status).toBe(200);
    const thanks = await answered.text();
    expect(thanks).toContain("Thank you for your answers!");
    expect(thanks).not.toContain("<b>coffee</b>");
    expect(answered.headers.get("set-cookie")).toBeNull();
    const connection = await connectionOf(token);
    const stored = await db
      .selectFrom("survey_responses")
      .select(["question_id", "answer", "customer_id", "connection_id"])
      .where("survey_id", "=", survey.id)
      .orderBy("id")
      .execute();
    expect(stored.map((r) => [r.question_id, r.answer])).toEqual([
      [rating, "4"],
      [multiple, "Work"],
      [checkbox, "Cake"],
      [checkbox, "Soup"],
      [text, "Great <b>coffee</b>"],
    ]);
    expect(new Set(stored.map((r) => `${r.customer_id}/${Number(r.connection_id)}`))).toEqual(
      new Set([`${connection.customer_id}/${connection.id}`]),
    );
    // Once per customer: not offered again, and a second post is refused.
    expect(await onlinePage(token)).not.toContain('action="/connect/survey"');
    const again = await fetch(`${server.origin}/connect/survey`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("You have already answered this survey");
    expect(await db.selectFrom("survey_responses").select("id").where("survey_id", "=", survey.id).execute()).toHaveLength(5);
  });

  it("refuses unknown tokens, guests not online, other networks, closed surveys and bad answers, storing nothing", async () => {
    const { org, venue, ap } = await world();
    const other = await makeNetwork(org.id);
    const elsewhere = await makeSurvey(org.id, { venues: [other.venue.id], title: "Other network" });
    const upcoming = await makeSurvey(org.id, { start: dayOffset(2), end: dayOffset(3), title: "Next week" });
    const token = await onlineGuest(venue.portal_key, ap.mac_address);
    // Neither is offered here.
    expect(await onlinePage(token)).not.toContain('action="/connect/survey"');
    const post = (form: Record<string, string>) => postForm(server.origin, "/connect/survey", form);
    expect((await post({ token: "x".repeat(32), survey_id: String(upcoming.id), intent: "answer" })).status).toBe(404);
    expect((await post({ token, survey_id: String(elsewhere.id), intent: "answer", [`q${elsewhere.q[0]}`]: "5" })).status).toBe(403);
    expect((await post({ token, survey_id: String(upcoming.id), intent: "answer", [`q${upcoming.q[0]}`]: "5" })).status).toBe(410);
    // A guest still on the connect form (not online) cannot answer.
    const waiting = (await enter(server.origin, `/hotspot/meraki/${venue.portal_key}?${merakiQuery(ap.mac_address)}`)).token!;
    const active = await makeSurvey(org.id, { title: "Open" });
    expect((await post({ token: waiting, survey_id: String(active.id), intent: "answer", [`q${active.q[0]}`]: "5" })).status).toBe(404);
    // Another organisation's survey.
    const stranger = await world();
    const foreign = await makeSurvey(stranger.org.id);
    expect((await post({ token, survey_id: String(foreign.id), intent: "answer", [`q${foreign.q[0]}`]: "5" })).status).toBe(404);
    // Bad answers: a rating of 6, an option not offered, nothing at all.
    const six = await post({ token, survey_id: String(active.id), intent: "answer", [`q${active.q[0]}`]: "6" });
    expect(six.status).toBe(422);
    expect(await six.text()).toContain("Choose a rating from 1 to 5.");
    const notOffered = await post({ token, survey_id: String(active.id), intent: "answer", [`q${active.q[1]}`]: "Beer" });
    expect(notOffered.status).toBe(422);
    expect(await notOffered.text()).toContain("Choose one of the answers offered.");
    const empty = await post({ token, survey_id: String(active.id), intent: "answer" });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain("Answer at least one question, or skip the survey.");
    const tooLong = await post({ token, survey_id: String(active.id), intent: "answer", [`q${active.q[3]}`]: "x".repeat(1001) });
    expect(tooLong.status).toBe(422);
    const nul = await post({ token, survey_id: String(active.id), intent: "answer", [`q${active.q[3]}`]: "a\u0000b" });
    expect(nul.status).toBe(400);
    const twoChoices = await fetch(`${server.origin}/connect/survey`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `token=${token}&survey_id=${active.id}&intent=answer&q${active.q[1]}=Coffee&q${active.q[1]}=Work`,
    });
    expect(twoChoices.status).toBe(422);
    expect(
      await db.selectFrom("survey_responses").select("id").where("organization_id", "in", [org.id, stranger.org.id]).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom("survey_participations").select("id").where("organization_id", "in", [org.id, stranger.org.id]).execute(),
    ).toEqual([]);
  });

  it("lets a guest skip; the survey is then not offered to that customer again, but still to others", async () => {
    const w = await world();
    const { org, venue, ap } = w;
    const survey = await makeSurvey(org.id, { venues: [] });
    const clientMac = randomMac();
    // Through a make that vouches for the device, so the device is known when it comes back (decision 0087).
    const viaMlango = () => mlangoEntryPath(w, clientMac);
    const token = await onlineGuest(venue.portal_key, ap.mac_address, clientMac, SIGNUP, viaMlango());
    const skipped = await postForm(server.origin, "/connect/survey", { token, survey_id: String(survey.id), intent: "skip" });
    expect(skipped.status).toBe(200);
    expect(await db.selectFrom("survey_participations").select("status").where("survey_id", "=", survey.id).execute()).toEqual([
      { status: "skipped" },
    ]);
    // The same device (same customer) comes back: nothing offered.
    const back = await onlineGuest(venue.portal_key, ap.mac_address, clientMac, SIGNUP, viaMlango());
    expect(await onlinePage(back)).not.toContain('action="/connect/survey"');
    // Someone else (another device, other details) is another customer.
    const someoneElse = await onlineGuest(venue.portal_key, ap.mac_address, randomMac(), {
      ...SIGNUP,
      first_name: "Baraka",
      email_address: "baraka@example.com",
      phone_number: "0722 000 111",
    });
    expect(await onlinePage(someoneElse)).toContain("Visit survey");
  });
});
