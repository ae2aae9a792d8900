// Surveys, on SQLite and PostgreSQL: the form's rules, derived statuses, create/edit/delete through
// the pages' actions, permissions, 404s across organisations, the report (paging from both ends,
// summaries, personal data), the exports, and the REST calls of docs/guide/api.md#survey-service.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { buildCustomer, buildVenue } from "~/tools/factories.server";
import { todayIso } from "~/lib/date-range";
import { parseOptions, responsesPageWindow, SURVEY_MESSAGES, surveySchema, surveyStatus } from "~/lib/schemas/surveys";
import { parseWithZod } from "@conform-to/zod";
import { makeMember, makeOrg, makeRequest, run, sessionCookie } from "../fixtures";
import { issueToken } from "~/services/auth.server";
import * as listRoute from "~/routes/$orgId+/_surveys+/surveys+/_index";
import * as createRoute from "~/routes/$orgId+/_surveys+/surveys+/create";
import * as detailRoute from "~/routes/$orgId+/_surveys+/survey+/$id";
import * as reportRoute from "~/routes/$orgId+/_surveys+/surveys+/report";
import * as csvRoute from "~/routes/$orgId+/_surveys+/surveys+/surveys[.csv]";
import * as xlsxRoute from "~/routes/$orgId+/_surveys+/surveys+/report[.xlsx]";
import * as apiList from "~/routes/api.v1.survey";
import * as apiOne from "~/routes/api.v1.survey.$id";
import * as apiResponses from "~/routes/api.v1.survey.responses";

const DAY = 86_400_000;
const today = () => todayIso();
const dayOffset = (n: number) => todayIso(Date.now() + n * DAY);

function surveyForm(fields: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  return {
    title: "Guest satisfaction",
    description: "How was your visit?",
    start_date: dayOffset(-1),
    end_date: dayOffset(5),
    "questions[0].question_text": "How was the Wi-Fi?",
    "questions[0].question_type": "rating",
    "questions[1].question_text": "What brought you here?",
    "questions[1].question_type": "multiple",
    "questions[1].options": "Coffee, Work, Friends",
    "questions[2].question_text": "Anything else?",
    "questions[2].question_type": "text",
    ...fields,
  };
}

async function owner() {
  const { org, owner } = await makeOrg(`Surveys ${Math.random().toString(36).slice(2, 8)}`);
  return { org, user: owner, cookie: await sessionCookie(owner.id, org.id) };
}

async function createViaPage(orgId: number, cookie: string, fields: Record<string, string | string[]> = {}) {
  const response = await run(() =>
    createRoute.action({
      request: makeRequest(`/${orgId}/surveys/create`, { cookie, form: surveyForm(fields) }),
      params: { orgId: String(orgId) },
      context: {},
    }),
  );
  const row = await db.selectFrom("surveys").select(["id"]).where("organization_id", "=", orgId).orderBy("id", "desc").executeTakeFirst();
  return { response, id: row ? Number(row.id) : null };
}

const questionsOf = (surveyId: number) =>
  db
    .selectFrom("survey_questions")
    .select(["id", "question_text", "question_type", "options", "removed_at"])
    .where("survey_id", "=", surveyId)
    .orderBy("position")
    .execute();

/** A guest's answers inserted directly (the guest path is tested in surveys-guest.test.ts). */
async function answers(orgId: number, surveyId: number, count: number, { at = Date.now(), customer = true } = {}) {
  const qs = await questionsOf(surveyId);
  const c = customer
    ? await db
        .insertInto("customers")
        .values(
          buildCustomer(orgId, {
            first_name: "Amina",
            last_name: "Otieno",
            email_address: "amina@example.com",
            phone_number: "+254712345678",
          }),
        )
        .returning("id")
        .executeTakeFirstOrThrow()
    : null;
  const rows = Array.from({ length: count }, (_, i) => {
    const q = qs[i % qs.length]!;
    const answer = q.question_type === "rating" ? String((i % 5) + 1) : q.question_type === "multiple" ? "Coffee" : `answer ${i}`;
    return {
      organization_id: orgId,
      survey_id: surveyId,
      question_id: Number(q.id),
      customer_id: c ? Number(c.id) : null,
      connection_id: null,
      answer,
      created_at: at - i * 1000,
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto("survey_responses")
      .values(rows.slice(i, i + 500))
      .execute();
}

describe("rules", () => {
  it("derives Upcoming, Active and Expired from the dates (UTC days, both inclusive)", () => {
    expect(surveyStatus({ start_date: "2026-11-26", end_date: "2026-11-30" }, "2026-11-25")).toBe("Upcoming");
    expect(surveyStatus({ start_date: "2026-11-25", end_date: "2026-11-25" }, "2026-11-25")).toBe("Active");
    expect(surveyStatus({ start_date: "2026-11-01", end_date: "2026-11-24" }, "2026-11-25")).toBe("Expired");
  });

  it("refuses a start after the end and a survey without questions with the spec's messages", () => {
    const bad = parseWithZod(new URLSearchParams({ title: "T", start_date: "2026-11-30", end_date: "2026-11-01" }) as unknown as FormData, {
      schema: surveySchema,
    });
    expect(bad.status).toBe("error");
    const errors = bad.reply().error;
    expect(errors?.start_date).toEqual([SURVEY_MESSAGES.datesOrder]);
    expect(errors?.questions).toEqual([SURVEY_MESSAGES.atLeastOneQuestion]);
  });

  it("keeps options only for option types; parses options as JSON or comma separated", () => {
    expect(parseOptions('["a, b", "c"]')).toEqual(["a, b", "c"]);
    expect(parseOptions(" Yes , No,,yes ")).toEqual(["Yes", "No"]);
    const form = new URLSearchParams({
      title: "T",
      start_date: "2026-11-01",
      end_date: "2026-11-02",
      "questions[0].question_text": "Q",
      "questions[0].question_type": "text",
      "questions[0].options": "a, b",
    });
    const ok = parseWithZod(form as unknown as FormData, { schema: surveySchema });
    expect(ok.status).toBe("success");
    if (ok.status === "success") expect(ok.value.questions[0]!.options).toEqual([]);
    form.set("questions[0].question_type", "dropdown");
    form.set("questions[0].options", "only one");
    const one = parseWithZod(form as unknown as FormData, { schema: surveySchema });
    expect(one.reply().error?.["questions[0].options"]).toEqual([SURVEY_MESSAGES.optionsRequired]);
  });

  it("shows all pages up to 7, else first, last and two either side with gaps", () => {
    expect(responsesPageWindow(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(responsesPageWindow(6, 20)).toEqual([1, null, 4, 5, 6, 7, 8, null, 20]);
    expect(responsesPageWindow(1, 10)).toEqual([1, 2, 3, null, 10]);
  });
});

describe("console pages", () => {
  it("creates a survey with its questions and networks, then lists it with its derived status", async () => {
    const { org, cookie } = await owner();
    const venue = await db
      .insertInto("venues")
      .values(buildVenue(org.id, { name: "Lobby" }))
      .returning("id")
      .executeTakeFirstOrThrow();
    const { response, id } = await createViaPage(org.id, cookie, { venues: String(venue.id) });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/${org.id}/surveys`);
    const qs = await questionsOf(id!);
    expect(qs.map((q) => [q.question_text, q.question_type, JSON.parse(q.options)])).toEqual([
      ["How was the Wi-Fi?", "rating", []],
      ["What brought you here?", "multiple", ["Coffee", "Work", "Friends"]],
      ["Anything else?", "text", []],
    ]);
    expect(await db.selectFrom("survey_venues").select("venue_id").where("survey_id", "=", id!).execute()).toEqual([
      { venue_id: venue.id },
    ]);
    await createViaPage(org.id, cookie, { title: "Next month", start_date: dayOffset(30), end_date: dayOffset(40) });
    await createViaPage(org.id, cookie, { title: "Last year", start_date: dayOffset(-400), end_date: dayOffset(-300) });
    const list = await (
      await run(() =>
        listRoute.loader({
          request: makeRequest(`/${org.id}/surveys?per_page=250`, { cookie }),
          params: { orgId: String(org.id) },
          context: {},
        }),
      )
    ).json();
    expect(list.list.pageSize).toBe(100);
    expect(list.surveys.map((s: { title: string; status: string }) => [s.title, s.status])).toEqual([
      ["Last year", "Expired"],
      ["Next month", "Upcoming"],
      ["Guest satisfaction", "Active"],
    ]);
    const searched = await (
      await run(() =>
        listRoute.loader({
          request: makeRequest(`/${org.id}/surveys?search=month`, { cookie }),
          params: { orgId: String(org.id) },
          context: {},
        }),
      )
    ).json();
    expect(searched.surveys.map((s: { title: string }) => s.title)).toEqual(["Next month"]);
  });

  it("refuses a start after the end and no questions, and saves nothing", async () => {
    const { org, cookie } = await owner();
    const form = surveyForm({ start_date: dayOffset(3), end_date: dayOffset(1) });
    for (const k of Object.keys(form)) if (k.startsWith("questions")) delete form[k];
    const response = await run(() =>
      createRoute.action({
        request: makeRequest(`/${org.id}/surveys/create`, { cookie, form }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.start_date).toEqual([SURVEY_MESSAGES.datesOrder]);
    expect(body.error.questions).toEqual([SURVEY_MESSAGES.atLeastOneQuestion]);
    expect(await db.selectFrom("surveys").select("id").where("organization_id", "=", org.id).execute()).toEqual([]);
  });

  it("adds and removes questions with list intents (no JavaScript) without saving", async () => {
    const { org, cookie } = await owner();
    const add = await run(() =>
      createRoute.action({
        request: makeRequest(`/${org.id}/surveys/create`, {
          cookie,
          form: {
            ...surveyForm(),
            __intent__: JSON.stringify({
              type: "insert",
              payload: { name: "questions", defaultValue: { question_text: "", question_type: "text", options: "" } },
            }),
          },
        }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    expect(add.status).toBe(200);
    const added = await add.json();
    expect(added.initialValue.questions).toHaveLength(4);
    const remove = await run(() =>
      createRoute.action({
        request: makeRequest(`/${org.id}/surveys/create`, {
          cookie,
          form: { ...surveyForm(), __intent__: JSON.stringify({ type: "remove", payload: { name: "questions", index: 0 } }) },
        }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    const removed = await remove.json();
    expect(removed.initialValue.questions.map((q: { question_text: string }) => q.question_text)).toEqual([
      "What brought you here?",
      "Anything else?",
    ]);
    expect(await db.selectFrom("surveys").select("id").where("organization_id", "=", org.id).execute()).toEqual([]);
  });

  it("edits: kept questions keep their id (and answers), left-out ones are removed, new ones added; Save returns to the view", async () => {
    const { org, cookie } = await owner();
    const { id } = await createViaPage(org.id, cookie);
    const [q1, , q3] = await questionsOf(id!);
    const response = await run(() =>
      detailRoute.action({
        request: makeRequest(`/${org.id}/survey/${id}?edit`, {
          cookie,
          form: {
            title: "Renamed",
            start_date: dayOffset(-1),
            end_date: dayOffset(2),
            "questions[0].id": String(q3!.id),
            "questions[0].question_text": "Anything else at all?",
            "questions[0].question_type": "text",
            "questions[1].id": String(q1!.id),
            "questions[1].question_text": "Rate the Wi-Fi",
            "questions[1].question_type": "rating",
            "questions[2].question_text": "Pick a drink",
            "questions[2].question_type": "dropdown",
            "questions[2].options": '["Tea", "Coffee"]',
          },
        }),
        params: { orgId: String(org.id), id: String(id) },
        context: {},
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/${org.id}/survey/${id}`);
    const after = await questionsOf(id!);
    const live = after.filter((q) => q.removed_at === null);
    expect(live.map((q) => [Number(q.id) === Number(q3!.id) || Number(q.id) === Number(q1!.id) ? "kept" : "new", q.question_text])).toEqual(
      [
        ["kept", "Anything else at all?"],
        ["kept", "Rate the Wi-Fi"],
        ["new", "Pick a drink"],
      ],
    );
    expect(after.filter((q) => q.removed_at !== null).map((q) => q.question_text)).toEqual(["What brought you here?"]);
    const view = await (
      await run(() =>
        detailRoute.loader({
          request: makeRequest(`/${org.id}/survey/${id}`, { cookie }),
          params: { orgId: String(org.id), id: String(id) },
          context: {},
        }),
      )
    ).json();
    expect(view.survey.title).toBe("Renamed");
    expect(view.survey.questions.map((q: { options: string[] }) => q.options)).toEqual([[], [], ["Tea", "Coffee"]]);
  });

  it("deletes after the confirmation, with its answers", async () => {
    const { org, cookie } = await owner();
    const { id } = await createViaPage(org.id, cookie);
    await answers(org.id, id!, 3);
    const ask = await run(() =>
      listRoute.action({
        request: makeRequest(`/${org.id}/surveys`, { cookie, form: { intent: "delete", id: String(id) } }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    expect((await ask.json()).confirm.message).toBe("Are you sure you want to delete this survey?");
    const done = await run(() =>
      listRoute.action({
        request: makeRequest(`/${org.id}/surveys`, { cookie, form: { intent: "delete", id: String(id), confirmed: "yes" } }),
        params: { orgId: String(org.id) },
        context: {},
      }),
    );
    expect(done.status).toBe(302);
    expect(await db.selectFrom("surveys").select("id").where("id", "=", id!).execute()).toEqual([]);
    expect(await db.selectFrom("survey_responses").select("id").where("survey_id", "=", id!).execute()).toEqual([]);
  });

  it("answers 404 for another organisation's survey, in pages, exports and deletes", async () => {
    const a = await owner();
    const b = await owner();
    const { id } = await createViaPage(a.org.id, a.cookie);
    const params = { orgId: String(b.org.id), id: String(id) };
    expect(
      (
        await run(() =>
          detailRoute.loader({ request: makeRequest(`/${b.org.id}/survey/${id}`, { cookie: b.cookie }), params, context: {} }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await run(() =>
          detailRoute.action({
            request: makeRequest(`/${b.org.id}/survey/${id}`, { cookie: b.cookie, form: surveyForm() }),
            params,
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await run(() =>
          listRoute.action({
            request: makeRequest(`/${b.org.id}/surveys`, {
              cookie: b.cookie,
              form: { intent: "delete", id: String(id), confirmed: "yes" },
            }),
            params,
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await run(() =>
          reportRoute.loader({
            request: makeRequest(`/${b.org.id}/surveys/report?survey_id=${id}`, { cookie: b.cookie }),
            params,
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await run(() =>
          csvRoute.loader({
            request: makeRequest(`/${b.org.id}/surveys/surveys.csv?survey_id=${id}`, { cookie: b.cookie }),
            params,
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await run(() =>
          detailRoute.loader({
            request: makeRequest(`/${a.org.id}/survey/99999999999`, { cookie: a.cookie }),
            params: { orgId: String(a.org.id), id: "99999999999" },
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
    expect(await db.selectFrom("surveys").select("title").where("id", "=", id!).executeTakeFirst()).toEqual({
      title: "Guest satisfaction",
    });
  });

  it("needs view_surveys to read and edit_surveys to change", async () => {
    const { org, cookie } = await owner();
    const { id } = await createViaPage(org.id, cookie);
    const viewer = await makeMember(org.id, "custom", ["view_surveys"]);
    const nobody = await makeMember(org.id, "custom", ["view_groups"]);
    const vc = await sessionCookie(viewer.user.id, org.id);
    const nc = await sessionCookie(nobody.user.id, org.id);
    const p = { orgId: String(org.id) };
    expect(
      (await run(() => listRoute.loader({ request: makeRequest(`/${org.id}/surveys`, { cookie: nc }), params: p, context: {} }))).status,
    ).toBe(403);
    expect(
      (await run(() => listRoute.loader({ request: makeRequest(`/${org.id}/surveys`, { cookie: vc }), params: p, context: {} }))).status,
    ).toBe(200);
    expect(
      (await run(() => createRoute.loader({ request: makeRequest(`/${org.id}/surveys/create`, { cookie: vc }), params: p, context: {} })))
        .status,
    ).toBe(403);
    expect(
      (
        await run(() =>
          createRoute.action({
            request: makeRequest(`/${org.id}/surveys/create`, { cookie: vc, form: surveyForm() }),
            params: p,
            context: {},
          }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await run(() =>
          listRoute.action({
            request: makeRequest(`/${org.id}/surveys`, { cookie: vc, form: { intent: "delete", id: String(id), confirmed: "yes" } }),
            params: p,
            context: {},
          }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await run(() =>
          detailRoute.loader({
            request: makeRequest(`/${org.id}/survey/${id}?edit`, { cookie: vc }),
            params: { ...p, id: String(id) },
            context: {},
          }),
        )
      ).status,
    ).toBe(403);
    expect(
      (await run(() => reportRoute.loader({ request: makeRequest(`/${org.id}/surveys/report`, { cookie: nc }), params: p, context: {} })))
        .status,
    ).toBe(403);
    expect(
      (
        await run(() =>
          csvRoute.loader({
            request: makeRequest(`/${org.id}/surveys/surveys.csv?survey_id=${id}`, { cookie: nc }),
            params: p,
            context: {},
          }),
        )
      ).status,
    ).toBe(403);
    // The r role holds every view_* permission: view_surveys, not edit_surveys.
    const reader = await makeMember(org.id, "r");
    const rc = await sessionCookie(reader.user.id, org.id);
    expect(
      (await run(() => listRoute.loader({ request: makeRequest(`/${org.id}/surveys`, { cookie: rc }), params: p, context: {} }))).status,
    ).toBe(200);
    expect(
      (
        await run(() =>
          createRoute.action({
            request: makeRequest(`/${org.id}/surveys/create`, { cookie: rc, form: surveyForm() }),
            params: p,
            context: {},
          }),
        )
      ).status,
    ).toBe(403);
  });
});

describe("report and exports", () => {
  it("asks for a survey, then pages answers newest first from either end, with summaries", async () => {
    const { org, cookie } = await owner();
    const { id } = await createViaPage(org.id, cookie);
    const p = { orgId: String(org.id) };
    const none = await (
      await run(() => reportRoute.loader({ request: makeRequest(`/${org.id}/surveys/report`, { cookie }), params: p, context: {} }))
    ).json();
    expect(none.prompt).toBe("Please select a survey");
    expect(none.surveys.map((s: { id: number }) => s.id)).toEqual([id]);
    const t0 = Date.now() - 60_000;
    await answers(org.id, id!, 45, { at: t0 });
    const first = await (
      await run(() =>
        reportRoute.loader({ request: makeRequest(`/${org.id}/surveys/report?survey_id=${id}`, { cookie }), params: p, context: {} }),
      )
    ).json();
    expect(first.page.pagination).toEqual({ total: 45, per_page: 20, current_page: 1, last_page: 3 });
    expect(first.page.rows[0]).toMatchObject({
      surveyquestion: "How was the Wi-Fi?",
      surveyresponse: "1",
      firstname: "Amina",
      lastname: "Otieno",
      email: "amina@example.com",
      phonenumber: "+254712345678",
    });
    const last = await (
      await run(() =>
        reportRoute.loader({
          request: makeRequest(`/${org.id}/surveys/report?survey_id=${id}&page=3`, { cookie }),
          params: p,
          context: {},
        }),
      )
    ).json();
    expect(last.page.rows).toHaveLength(5);
    // The last page read from the oldest end is still newest first, continuing page 2.
    // Rows 40–44 (i = 40 … 44 cycle rating, multiple, text): newest first.
    expect(last.page.rows.map((r: { surveyresponse: string }) => r.surveyresponse)).toEqual(
      ["Coffee", "answer 41", "3", "Coffee", "answer 44"].map((x, k) => ((40 + k) % 3 === 0 ? String(((40 + k) % 5) + 1) : x)),
    );
    const times = last.page.rows.map((r: { created_at: number }) => r.created_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(times[times.length - 1]).toBe(t0 - 44_000);
    const rating = first.summaries.find((s: { question_type: string }) => s.question_type === "rating");
    // Answers 0, 3, 6 … 42 are ratings: (i % 5) + 1 for i = 0, 3, …, 42.
    const scores = Array.from({ length: 15 }, (_, k) => ((3 * k) % 5) + 1);
    expect(rating.answers).toBe(15);
    expect(rating.average).toBe(Math.round((scores.reduce((s, x) => s + x, 0) / 15) * 100) / 100);
    const multiple = first.summaries.find((s: { question_type: string }) => s.question_type === "multiple");
    expect(multiple.counts).toEqual([
      { label: "Coffee", count: 15 },
      { label: "Work", count: 0 },
      { label: "Friends", count: 0 },
    ]);
    const outside = await (
      await run(() =>
        reportRoute.loader({
          request: makeRequest(`/${org.id}/surveys/report?survey_id=${id}&start_date=${dayOffset(-30)}&end_date=${dayOffset(-20)}`, {
            cookie,
          }),
          params: p,
          context: {},
        }),
      )
    ).json();
    expect(outside.page.pagination.total).toBe(0);
  });

  it("hides names and contacts without view_clients", async () => {
    const { org, cookie } = await owner();
    const { id } = await createViaPage(org.id, cookie);
    await answers(org.id, id!, 2);
    const viewer = await makeMember(org.id, "custom", ["view_surveys"]);
    const vc = await sessionCookie(viewer.user.id, org.id);
    const data = await (
      await run(() =>
        reportRoute.loader({
          request: makeRequest(`/${org.id}/surveys/report?survey_id=${id}`, { cookie: vc }),
          params: { orgId: String(org.id) },
          context: {},
        }),
      )
    ).json();
    expect(data.page.rows[0]).toMatchObject({ firstname: null, lastname: null, email: null, phonenumber: null });
  });

  it("streams surveys.csv with every row (formulas defused) and says 'No surveys to export.' when empty", async () => {
    const { org, user, cookie } = await owner();
    const { id } = await createViaPage(org.id, cookie);
    const p = { orgId: String(org.id) };
    const empty = await run(() =>
      csvRoute.loader({ request: makeRequest(`/${org.id}/surveys/surveys.csv?survey_id=${id}`, { cookie }), params: p, context: {} }),
    );
    expect(empty.status).toBe(302);
    const token = await issueToken(user.id, "api");
    const emptyApi = await run(() =>
      csvRoute.loader({
        request: makeRequest(`/${org.id}/surveys/surveys.csv?survey_id=${id}`, { headers: { Authorization: `Bearer ${token}` } }),
        params: p,
        context: {},
      }),
    );
    expect(emptyApi.status).toBe(404);
    expect((await emptyApi.json()).message).toBe("No surveys to export.");
    await answers(org.id, id!, 4500);
    const [textQ] = (await questionsOf(id!)).filter((q) => q.question_type === "text");
    await db
      .insertInto("survey_responses")
      .values({
        organization_id: org.id,
        survey_id: id!,
        question_id: Number(textQ!.id),
        customer_id: null,
        connection_id: null,
        answer: '=HYPERLINK("x")',
        created_at: Date.now(),
      })
      .execute();
    const response = await run(() =>
      csvRoute.loader({
        request: makeRequest(`/${org.id}/surveys/surveys.csv?survey_id=${id}`, { headers: { Authorization: `Bearer ${token}` } }),
        params: p,
        context: {},
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toContain('filename="surveys.csv"');
    const lines = (await response.text()).trim().split("\n");
    expect(lines[0]).toBe("#,Question,Response,First Name,Last Name,Email,Phone Number,Answered At (UTC)");
    expect(lines).toHaveLength(4502);
    expect(lines[1]).toMatch(/^1,Anything else\?,"'=HYPERLINK\(""x""\)",,,,,/);
    expect(lines[4501]!.startsWith("4501,")).toBe(true);
  });

  it("exports a page as survey-responses-page-N.xlsx with a 'Survey Responses' sheet; an empty page is refused", async () => {
    const { org, user, cookie } = await owner();
    const { id } = await createViaPage(org.id, cookie);
    await answers(org.id, id!, 25);
    const token = await issueToken(user.id, "api");
    const p = { orgId: String(org.id) };
    const response = await run(() =>
      xlsxRoute.loader({
        request: makeRequest(`/${org.id}/surveys/report.xlsx?survey_id=${id}&page=2`, { headers: { Authorization: `Bearer ${token}` } }),
        params: p,
        context: {},
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toContain('filename="survey-responses-page-2.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
    const sheet = workbook.getWorksheet("Survey Responses")!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      "#",
      "Question",
      "Response",
      "First Name",
      "Last Name",
      "Email",
      "Phone Number",
      "Answered At (UTC)",
    ]);
    expect(sheet.rowCount).toBe(6);
    expect(sheet.getRow(2).getCell(1).value).toBe(21);
    // Ratings are numbers a spreadsheet can average; other answers stay text; every answer has its time.
    const ratingQuestions = new Set((await questionsOf(id!)).filter((q) => q.question_type === "rating").map((q) => q.question_text));
    let ratings = 0;
    for (let n = 2; n <= 6; n++) {
      const row = sheet.getRow(n);
      const rating = ratingQuestions.has(String(row.getCell(2).value));
      if (rating) ratings++;
      expect(typeof row.getCell(3).value).toBe(rating ? "number" : "string");
      expect(String(row.getCell(8).value)).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
    }
    expect(ratings).toBeGreaterThan(0);
    const past = await run(() =>
      xlsxRoute.loader({
        request: makeRequest(`/${org.id}/surveys/report.xlsx?survey_id=${id}&page=3`, { headers: { Authorization: `Bearer ${token}` } }),
        params: p,
        context: {},
      }),
    );
    expect(past.status).toBe(404);
    expect((await past.json()).message).toBe("No data found on this page to export.");
    const browser = await run(() =>
      xlsxRoute.loader({
        request: makeRequest(`/${org.id}/surveys/report.xlsx?survey_id=${id}&page=3`, { cookie }),
        params: p,
        context: {},
      }),
    );
    expect(browser.status).toBe(302);
  });
});

describe("REST", () => {
  async function apiCaller() {
    const o = await owner();
    const token = await issueToken(o.user.id, "api");
    const headers = { Authorization: `Bearer ${token}`, "X-Organization-Id": String(o.org.id) };
    return { ...o, token, headers };
  }
  const jsonRequest = (path: string, method: string, headers: Record<string, string>, body?: unknown) =>
    new Request(`http://localhost${path}`, {
      method,
      headers: { ...headers, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const BODY = {
    title: "API survey",
    description: null,
    start_date: dayOffset(-1),
    end_date: dayOffset(1),
    questions: [
      { question_text: "Rate us", question_type: "rating" },
      { question_text: "Pick", question_type: "checkbox", options: ["A, with comma", "B"] },
    ],
  };

  it("creates, reads, lists, edits and deletes with the pages' schema and messages", async () => {
    const c = await apiCaller();
    const created = await run(() =>
      apiList.action({ request: jsonRequest("/api/v1/survey", "POST", c.headers, BODY), params: {}, context: {} }),
    );
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.message).toBe("Survey created successfully!");
    expect(body.data).toMatchObject({
      title: "API survey",
      status: "Active",
      questions: [
        { question_text: "Rate us", options: [] },
        { question_type: "checkbox", options: ["A, with comma", "B"] },
      ],
    });
    const id = body.data.id;
    const list = await (
      await run(() =>
        apiList.loader({
          request: new Request(`http://localhost/api/v1/survey?limit=5&offset=0&search=API`, { headers: c.headers }),
          params: {},
          context: {},
        }),
      )
    ).json();
    expect(list.total).toBe(1);
    expect(list.data[0].id).toBe(id);
    const one = await (
      await run(() =>
        apiOne.loader({
          request: new Request(`http://localhost/api/v1/survey/${id}`, { headers: c.headers }),
          params: { id: String(id) },
          context: {},
        }),
      )
    ).json();
    expect(one.data.questions).toHaveLength(2);
    const bad = await run(() =>
      apiOne.action({
        request: jsonRequest(`/api/v1/survey/${id}`, "PUT", c.headers, { ...BODY, start_date: dayOffset(5), questions: [] }),
        params: { id: String(id) },
        context: {},
      }),
    );
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toEqual({
      start_date: [SURVEY_MESSAGES.datesOrder],
      questions: [SURVEY_MESSAGES.atLeastOneQuestion],
    });
    const put = await run(() =>
      apiOne.action({
        request: jsonRequest(`/api/v1/survey/${id}`, "PUT", c.headers, {
          ...BODY,
          title: "Edited",
          questions: [{ id: one.data.questions[0].id, question_text: "Rate us again", question_type: "rating" }],
        }),
        params: { id: String(id) },
        context: {},
      }),
    );
    expect(put.status).toBe(200);
    const edited = await put.json();
    expect(edited.message).toBe("Survey Edited successfully!");
    expect(edited.data.questions).toEqual([
      { id: one.data.questions[0].id, question_text: "Rate us again", question_type: "rating", options: [] },
    ]);
    const del = await run(() =>
      apiOne.action({
        request: new Request(`http://localhost/api/v1/survey/${id}`, { method: "DELETE", headers: c.headers }),
        params: { id: String(id) },
        context: {},
      }),
    );
    expect(del.status).toBe(200);
    expect(
      (
        await run(() =>
          apiOne.loader({
            request: new Request(`http://localhost/api/v1/survey/${id}`, { headers: c.headers }),
            params: { id: String(id) },
            context: {},
          }),
        )
      ).status,
    ).toBe(404);
  });

  it("answers responses with pagination, and refuses what it should", async () => {
    const c = await apiCaller();
    const { id } = await createViaPage(c.org.id, c.cookie);
    await answers(c.org.id, id!, 30);
    const page = await run(() =>
      apiResponses.action({
        request: jsonRequest("/api/v1/survey/responses", "POST", c.headers, {
          survey_id: id,
          page: 2,
          per_page: 20,
          start_date: dayOffset(-1),
          end_date: today(),
        }),
        params: {},
        context: {},
      }),
    );
    expect(page.status).toBe(200);
    const body = await page.json();
    expect(body.pagination).toEqual({ total: 30, per_page: 20, current_page: 2, last_page: 2 });
    expect(body.responses).toHaveLength(10);
    expect(Object.keys(body.responses[0])).toEqual(
      expect.arrayContaining(["surveyquestion", "surveyresponse", "firstname", "lastname", "email", "phonenumber"]),
    );
    const noSurvey = await run(() =>
      apiResponses.action({ request: jsonRequest("/api/v1/survey/responses", "POST", c.headers, { page: 1 }), params: {}, context: {} }),
    );
    expect(noSurvey.status).toBe(422);
    expect((await noSurvey.json()).errors.survey_id).toEqual(["Please select a survey"]);
    // Another organisation's survey, a missing token, the wrong permission, NUL in JSON.
    const other = await apiCaller();
    const foreign = await run(() =>
      apiResponses.action({
        request: jsonRequest("/api/v1/survey/responses", "POST", other.headers, { survey_id: id }),
        params: {},
        context: {},
      }),
    );
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.message).toBe("Survey not found.");
    const foreignPut = await run(() =>
      apiOne.action({ request: jsonRequest(`/api/v1/survey/${id}`, "PUT", other.headers, BODY), params: { id: String(id) }, context: {} }),
    );
    expect(foreignPut.status).toBe(404);
    const anonymous = await run(() =>
      apiList.loader({
        request: new Request("http://localhost/api/v1/survey", { headers: { "X-Organization-Id": String(c.org.id) } }),
        params: {},
        context: {},
      }),
    );
    expect(anonymous.status).toBe(401);
    const viewer = await makeMember(c.org.id, "custom", ["view_surveys"]);
    const vh = { Authorization: `Bearer ${await issueToken(viewer.user.id, "api")}`, "X-Organization-Id": String(c.org.id) };
    expect(
      (await run(() => apiList.action({ request: jsonRequest("/api/v1/survey", "POST", vh, BODY), params: {}, context: {} }))).status,
    ).toBe(403);
    expect(
      (
        await run(() =>
          apiList.loader({ request: new Request("http://localhost/api/v1/survey", { headers: vh }), params: {}, context: {} }),
        )
      ).status,
    ).toBe(200);
    const nul = await run(() =>
      apiList.action({
        request: jsonRequest("/api/v1/survey", "POST", c.headers, { ...BODY, title: "a\u0000b" }),
        params: {},
        context: {},
      }),
    );
    expect(nul.status).toBe(400);
    const nested = await run(() =>
      apiList.action({
        request: jsonRequest("/api/v1/survey", "POST", c.headers, {
          ...BODY,
          questions: [{ question_text: { x: 1 }, question_type: "text" }],
        }),
        params: {},
        context: {},
      }),
    );
    expect(nested.status).toBe(422);
    const badType = await run(() =>
      apiList.action({
        request: jsonRequest("/api/v1/survey", "POST", c.headers, { ...BODY, questions: [{ question_text: "Q", question_type: "essay" }] }),
        params: {},
        context: {},
      }),
    );
    expect(badType.status).toBe(422);
    expect(await db.selectFrom("surveys").select("id").where("organization_id", "=", c.org.id).execute()).toHaveLength(1);
  });
});
