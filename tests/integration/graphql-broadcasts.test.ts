// Broadcasts and schedules through the data API (docs/guide/api.md#queries), over HTTP against the
// built server on SQLite and PostgreSQL: the answers, the forms' refusals (422), permissions (403),
// other organisations' ids (404), and one dispatch job per schedule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { refusalMessage, type Permission } from "~/lib/permissions";
import { BROADCAST_MESSAGES, SMS_MAX_SEGMENTS } from "~/lib/schemas/broadcasts";
import { issueToken } from "~/services/auth.server";
import { BROADCAST_RESULT_MESSAGES } from "~/services/marketing/broadcasts.server";
import { DISPATCH_JOB } from "~/services/marketing/dispatch.server";
import { SCHEDULE_MESSAGES } from "~/services/marketing/schedules.server";
import { makeMember } from "../fixtures";
import { apiOrg, firstError, gql, gqlData, type Caller } from "../fixtures/graphql";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.close());

async function setup() {
  const base = await apiOrg();
  return { ...base, caller: { token: base.token, org: base.org.id } as Caller };
}

async function memberCaller(orgId: number, permissions: Permission[]): Promise<Caller> {
  const { user } = await makeMember(orgId, "custom", permissions);
  return { token: await issueToken(user.id, "api"), org: orgId };
}

async function group(orgId: number, name: string) {
  const now = Date.now();
  const row = await db
    .insertInto("customer_groups")
    .values({ organization_id: orgId, name, description: null, filters: "{}", created_by_user_id: null, created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return String(row.id);
}

const CREATE = `mutation Create($title: String, $description: String) { createBroadcast(title: $title, description: $description) { code message recordId success } }`;
const EMAIL = `mutation Email($input: BroadcastEmailInput!) { updateBroadcastEmail(input: $input) { code message recordId success } }`;
const SMS = `mutation Sms($input: BroadcastMessageInput!) { updateBroadcastMessage(input: $input) { code message recordId success } }`;
const DELETE = `mutation Delete($id: ID!) { deleteBroadcast(id: $id) { code message recordId success } }`;
const SCHEDULE = `mutation Schedule($id: ID!, $channel: String, $groups: [ID!]!, $at: String) {
  scheduleBroadcast(id: $id, channel: $channel, customerGroups: $groups, dispatchAt: $at) { code message recordId success } }`;
const CANCEL = `mutation Cancel($id: ID!) { cancelBroadcastSchedule(id: $id) { code message recordId success } }`;
const DETAIL = `query One($id: ID!) { broadcast(id: $id) { id title description sms email_html email_text email_design createdBy { id first_name last_name } created_at updated_at
  schedulesCount schedules(limit: 10) { id channel status created_at dispatch_at error customerGroup { id name } customerGroups { id name } createdBy { first_name } } } }`;

async function created(caller: Caller, title = "Weekend offer", description: string | null = "Half price") {
  const answer = (await gqlData(server, caller, CREATE, { title, description })).createBroadcast;
  expect(answer).toMatchObject({ code: 200, success: true, message: BROADCAST_RESULT_MESSAGES.created });
  return answer.recordId as string;
}

describe("broadcasts in the data API", () => {
  it("creates, lists, counts and reads broadcasts, newest first", async () => {
    const { caller, owner } = await setup();
    const first = await created(caller, "Easter promo", "Eggs");
    await db
      .updateTable("broadcasts")
      .set({ created_at: Date.UTC(2026, 3, 1) })
      .where("id", "=", Number(first))
      .execute();
    const second = await created(caller, "Weekend offer", null);
    const other = await setup();
    await created(other.caller, "Not ours");
    const data = await gqlData(
      server,
      caller,
      `{ broadcasts(limit: 10, offset: 0, order: "created_at desc") { id title description createdBy { id first_name last_name } created_at } broadcastsCount easter: broadcastsCount(search: "easter") }`,
    );
    expect(data.broadcastsCount).toBe(2);
    expect(data.easter).toBe(1);
    expect(data.broadcasts.map((b: { id: string }) => b.id)).toEqual([second, first]);
    expect(data.broadcasts[1]).toEqual({
      id: first,
      title: "Easter promo",
      description: "Eggs",
      createdBy: { id: String(owner.id), first_name: owner.first_name, last_name: owner.last_name },
      created_at: "2026-04-01T00:00:00.000Z",
    });
    const detail = (await gqlData(server, caller, DETAIL, { id: second })).broadcast;
    expect(detail).toMatchObject({
      id: second,
      title: "Weekend offer",
      description: null,
      sms: null,
      email_html: null,
      email_design: null,
      schedulesCount: 0,
      schedules: [],
    });
    const badOrder = await gql(server, caller, `{ broadcasts(order: "title") { id } }`);
    expect(firstError(badOrder)).toEqual({ code: "BAD_USER_INPUT", message: "order must be 'created_at desc'." });
  });

  it("refuses a missing title with the form's message (422)", async () => {
    const { caller, org } = await setup();
    for (const title of [null, "", "   "]) {
      expect((await gqlData(server, caller, CREATE, { title })).createBroadcast).toEqual({
        code: 422,
        message: BROADCAST_MESSAGES.titleRequired,
        recordId: null,
        success: false,
      });
    }
    // A NUL never reaches the resolver: the request boundary refuses it (tests/integration/guest-boundary.test.ts).
    expect(await db.selectFrom("broadcasts").select("id").where("organization_id", "=", org.id).execute()).toEqual([]);
  });

  it("saves the e-mail (HTML, text, design) and the SMS", async () => {
    const { caller } = await setup();
    const id = await created(caller);
    const design = JSON.stringify({ body: { rows: [] } });
    const saved = (await gqlData(server, caller, EMAIL, { input: { id, email: "<p>Karibu</p>", text: "Karibu", design } }))
      .updateBroadcastEmail;
    expect(saved).toEqual({ code: 200, message: BROADCAST_RESULT_MESSAGES.emailSaved, recordId: id, success: true });
    // Without text the stored plain text stays; without design the design is cleared.
    await gqlData(server, caller, EMAIL, { input: { id, email: "<p>Karibu sana</p>" } });
    const sms = (await gqlData(server, caller, SMS, { input: { id, sms: "Karibu! {today}" } })).updateBroadcastMessage;
    expect(sms).toEqual({ code: 200, message: BROADCAST_RESULT_MESSAGES.smsSaved, recordId: id, success: true });
    expect((await gqlData(server, caller, DETAIL, { id })).broadcast).toMatchObject({
      email_html: "<p>Karibu sana</p>",
      email_text: "Karibu",
      email_design: null,
      sms: "Karibu! {today}",
    });
    await gqlData(server, caller, EMAIL, { input: { id, email: "<p>x</p>", text: null, design } });
    expect((await gqlData(server, caller, DETAIL, { id })).broadcast).toMatchObject({ email_text: null, email_design: design });
    const badDesign = (await gqlData(server, caller, EMAIL, { input: { id, email: "<p>x</p>", design: "not json" } })).updateBroadcastEmail;
    expect(badDesign).toEqual({ code: 422, message: BROADCAST_MESSAGES.designInvalid, recordId: id, success: false });
    const long = (await gqlData(server, caller, SMS, { input: { id, sms: "a".repeat(153 * SMS_MAX_SEGMENTS + 1) } }))
      .updateBroadcastMessage;
    expect(long).toMatchObject({ code: 422, message: BROADCAST_MESSAGES.smsTooLong(SMS_MAX_SEGMENTS + 1, SMS_MAX_SEGMENTS) });
  });

  it("schedules a broadcast for groups (one dispatch job), lists its schedules and cancels one", async () => {
    const { caller, org, owner } = await setup();
    const id = await created(caller);
    await gqlData(server, caller, SMS, { input: { id, sms: "Karibu" } });
    const regulars = await group(org.id, "Regulars");
    const at = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16) + ":00Z";
    const later = (await gqlData(server, caller, SCHEDULE, { id, channel: "SMS", groups: [regulars], at })).scheduleBroadcast;
    expect(later).toMatchObject({ code: 200, success: true });
    const now = (await gqlData(server, caller, SCHEDULE, { id, channel: "SMS", groups: [regulars], at: "now" })).scheduleBroadcast;
    expect(now).toMatchObject({ code: 200, message: expect.stringMatching(new RegExp(`^${SCHEDULE_MESSAGES.scheduledNow} It reaches `)) });
    const jobs = await db.selectFrom("jobs").select(["payload", "run_at"]).where("type", "=", DISPATCH_JOB).orderBy("id").execute();
    expect(jobs.map((j) => JSON.parse(j.payload).scheduleId)).toEqual([Number(later.recordId), Number(now.recordId)]);
    expect(Number(jobs[0].run_at)).toBe(Date.parse(at));
    const detail = (await gqlData(server, caller, DETAIL, { id })).broadcast;
    expect(detail.schedulesCount).toBe(2);
    expect(detail.schedules[0]).toEqual({
      id: later.recordId,
      channel: "SMS",
      status: "Scheduled",
      created_at: expect.any(String),
      dispatch_at: new Date(Date.parse(at)).toISOString(),
      error: null,
      customerGroup: { id: regulars, name: "Regulars" },
      customerGroups: [{ id: regulars, name: "Regulars" }],
      createdBy: { first_name: owner.first_name },
    });
    expect((await gqlData(server, caller, CANCEL, { id: later.recordId })).cancelBroadcastSchedule).toEqual({
      code: 200,
      message: SCHEDULE_MESSAGES.cancelled,
      recordId: later.recordId,
      success: true,
    });
    expect((await gqlData(server, caller, CANCEL, { id: later.recordId })).cancelBroadcastSchedule).toMatchObject({
      code: 409,
      message: SCHEDULE_MESSAGES.notCancellable("Cancelled"),
    });
  });

  it("refuses schedules with the form's and the service's messages", async () => {
    const { caller, org } = await setup();
    const id = await created(caller);
    const g = await group(org.id, "Regulars");
    const schedule = async (vars: Record<string, unknown>) =>
      (await gqlData(server, caller, SCHEDULE, { id, groups: [g], ...vars })).scheduleBroadcast;
    expect(await schedule({})).toMatchObject({ code: 422, message: SCHEDULE_MESSAGES.noContent, recordId: id });
    await gqlData(server, caller, EMAIL, { input: { id, email: "<p>x</p>" } });
    expect(await schedule({ channel: "EMAIL", at: "2020-01-01T00:00:00Z" })).toMatchObject({ code: 422, message: SCHEDULE_MESSAGES.past });
    expect(await schedule({ channel: "EMAIL", at: "next week" })).toMatchObject({
      code: 422,
      message: BROADCAST_MESSAGES.dispatchAtInvalid,
    });
    expect(await schedule({ channel: "FAX" })).toMatchObject({ code: 422, message: BROADCAST_MESSAGES.channel });
    expect(await schedule({ channel: "EMAIL", groups: [] })).toMatchObject({ code: 422, message: BROADCAST_MESSAGES.groupsRequired });
    expect(await schedule({ channel: "EMAIL", groups: ["abc"] })).toMatchObject({ code: 404, message: SCHEDULE_MESSAGES.groupNotFound });
    const other = await setup();
    expect(await schedule({ channel: "EMAIL", groups: [await group(other.org.id, "Theirs")] })).toMatchObject({
      code: 404,
      message: SCHEDULE_MESSAGES.groupNotFound,
    });
    expect(await db.selectFrom("broadcast_schedules").select("id").where("organization_id", "=", org.id).execute()).toEqual([]);
  });

  it("checks the pages' permissions", async () => {
    const { caller, org } = await setup();
    const id = await created(caller);
    await gqlData(server, caller, SMS, { input: { id, sms: "Karibu" } });
    const g = await group(org.id, "Regulars");
    const nobody = await memberCaller(org.id, ["view_groups"]);
    expect(firstError(await gql(server, nobody, `{ broadcasts { id } }`))).toEqual({
      code: "FORBIDDEN",
      message: refusalMessage("view_broadcasts"),
    });
    const viewer = await memberCaller(org.id, ["view_broadcasts"]);
    expect((await gqlData(server, viewer, `{ broadcastsCount }`)).broadcastsCount).toBe(1);
    expect((await gqlData(server, viewer, CREATE, { title: "x" })).createBroadcast).toMatchObject({
      code: 403,
      message: refusalMessage("create_broadcasts"),
    });
    expect((await gqlData(server, viewer, SMS, { input: { id, sms: "x" } })).updateBroadcastMessage).toMatchObject({ code: 403 });
    const writer = await memberCaller(org.id, ["create_broadcasts"]);
    expect((await gqlData(server, writer, SMS, { input: { id, sms: "Hi" } })).updateBroadcastMessage).toMatchObject({ code: 200 });
    expect((await gqlData(server, writer, SCHEDULE, { id, channel: "SMS", groups: [g] })).scheduleBroadcast).toMatchObject({
      code: 403,
      message: refusalMessage("create_groups"),
    });
    expect((await gqlData(server, writer, DELETE, { id })).deleteBroadcast).toMatchObject({
      code: 403,
      message: refusalMessage("delete_groups"),
    });
    const deleter = await memberCaller(org.id, ["delete_groups"]);
    expect((await gqlData(server, deleter, DELETE, { id })).deleteBroadcast).toEqual({
      code: 200,
      message: BROADCAST_RESULT_MESSAGES.deleted("Weekend offer"),
      recordId: id,
      success: true,
    });
    expect(await db.selectFrom("broadcasts").select("id").where("id", "=", Number(id)).execute()).toEqual([]);
  });

  it("answers 404 for another organisation's broadcasts and schedules", async () => {
    const { caller } = await setup();
    const other = await setup();
    const theirs = await created(other.caller);
    await gqlData(server, other.caller, SMS, { input: { id: theirs, sms: "Karibu" } });
    const theirSchedule = (
      await gqlData(server, other.caller, SCHEDULE, { id: theirs, channel: "SMS", groups: [await group(other.org.id, "Theirs")] })
    ).scheduleBroadcast.recordId;
    expect(firstError(await gql(server, caller, DETAIL, { id: theirs }))).toEqual({
      code: "NOT_FOUND",
      message: BROADCAST_RESULT_MESSAGES.notFound,
    });
    expect(firstError(await gql(server, caller, DETAIL, { id: "abc" })).code).toBe("NOT_FOUND");
    expect((await gqlData(server, caller, EMAIL, { input: { id: theirs, email: "<p>x</p>" } })).updateBroadcastEmail).toMatchObject({
      code: 404,
    });
    expect((await gqlData(server, caller, SMS, { input: { id: theirs, sms: "x" } })).updateBroadcastMessage).toMatchObject({ code: 404 });
    expect((await gqlData(server, caller, DELETE, { id: theirs })).deleteBroadcast).toMatchObject({ code: 404 });
    expect((await gqlData(server, caller, SCHEDULE, { id: theirs, groups: ["1"] })).scheduleBroadcast).toMatchObject({ code: 404 });
    expect((await gqlData(server, caller, CANCEL, { id: theirSchedule })).cancelBroadcastSchedule).toMatchObject({
      code: 404,
      message: SCHEDULE_MESSAGES.notFound,
    });
    expect((await gqlData(server, caller, CANCEL, { id: "99999999999" })).cancelBroadcastSchedule).toMatchObject({ code: 404 });
    const row = await db
      .selectFrom("broadcast_schedules")
      .select("status")
      .where("id", "=", Number(theirSchedule))
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("Scheduled");
    expect((await db.selectFrom("broadcasts").select("sms").where("id", "=", Number(theirs)).executeTakeFirstOrThrow()).sms).toBe("Karibu");
  });
});
