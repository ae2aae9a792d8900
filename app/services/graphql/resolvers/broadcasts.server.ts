// Broadcasts and their schedules (docs/guide/marketing.md#broadcasts,
// docs/guide/access-control.md#what-each-permission-shows, docs/guide/api.md#queries). The services
// check the permissions the pages check; inputs go through the pages' zod schemas, so a script is
// refused with the forms' messages (422). A list of broadcasts carries no content and no schedules:
// those come with broadcast(id), one broadcast at a time, so a page of broadcasts is two queries.
import type { ZodTypeAny, z } from "zod";
import { parseId } from "~/lib/ids";
import { broadcastEmailSchema, broadcastSchema, broadcastSmsSchema, scheduleSchema } from "~/lib/schemas/broadcasts";
import { notFound, requirePermission, type OrgContext } from "../../guard.server";
import {
  createBroadcast,
  deleteBroadcast,
  EDIT_BROADCASTS,
  getBroadcast,
  listBroadcasts,
  updateBroadcastEmail,
  updateBroadcastSms,
  type Broadcast,
  type BroadcastSummary,
} from "../../marketing/broadcasts.server";
import {
  cancelSchedule,
  createSchedule,
  listSchedules,
  SCHEDULE_MESSAGES,
  SCHEDULE_PERMISSION,
  type ScheduleRow,
} from "../../marketing/schedules.server";
import { checkOrder, pageOf, recordId, searchOf, type PageArgs } from "../args.server";
import { done, mutation, refused, type MutationResult } from "../errors.server";
import { iso, type Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  "Who created a broadcast or a schedule (a member of the organization's staff)."
  type BroadcastAuthor {
    id: ID!
    first_name: String!
    last_name: String!
  }

  "A broadcast as the list shows it (Title, Created on, Owner, Description)."
  type Broadcast {
    id: ID!
    "Also the e-mail's subject."
    title: String!
    description: String
    createdBy: BroadcastAuthor
    created_at: String!
  }

  "A broadcast with its content and schedules."
  type BroadcastDetail {
    id: ID!
    "Also the e-mail's subject."
    title: String!
    description: String
    "The SMS text."
    sms: String
    "The e-mail's HTML body."
    email_html: String
    "The e-mail's plain-text body."
    email_text: String
    "The JSON of the visual designer that made email_html, without anything that could run script in the designer (null when the HTML was written by hand)."
    email_design: String
    createdBy: BroadcastAuthor
    created_at: String!
    updated_at: String!
    "Newest dispatch time first."
    schedules(limit: Int = 10, offset: Int = 0): [BroadcastSchedule!]! @complexity(value: 1, multipliers: ["limit"])
    schedulesCount: Int!
  }

  "A customer group a schedule was made for; id is null once the group was deleted (the name stays)."
  type BroadcastScheduleGroup {
    id: ID
    name: String!
  }

  """
  When and how a broadcast is sent. status: Scheduled (waiting; the only one that can be cancelled),
  Sending, Sent, Failed (error says why) or Cancelled.
  """
  type BroadcastSchedule {
    id: ID!
    "BOTH, SMS or EMAIL"
    channel: String!
    customerGroups: [BroadcastScheduleGroup!]!
    "The first of customerGroups (the spec's one group per schedule)."
    customerGroup: BroadcastScheduleGroup
    createdBy: BroadcastAuthor
    created_at: String!
    dispatch_at: String!
    status: String!
    error: String
  }

  "The e-mail of a broadcast (updateBroadcastEmail)."
  input BroadcastEmailInput {
    id: ID!
    "The HTML body (up to 200,000 characters); null or empty clears it."
    email: String
    "The plain-text body (up to 50,000 characters); left out, the stored one stays; null or empty clears it."
    text: String
    "A visual designer's JSON (an object, as text) that made the HTML, stored without script components, script properties, event handlers or script URLs; left out, the stored design is cleared."
    design: String
  }

  "The SMS of a broadcast (updateBroadcastMessage)."
  input BroadcastMessageInput {
    id: ID!
    "At most 10 parts (GSM-7 160/153 characters, UCS-2 70/67); null or empty clears it."
    sms: String
  }

  extend type Query {
    "view_broadcasts, create_broadcasts or create_groups. Newest first; search looks in titles."
    broadcasts(limit: Int = 10, offset: Int = 0, order: String = "created_at desc", search: String): [Broadcast!]!
      @complexity(value: 1, multipliers: ["limit"])
    "view_broadcasts, create_broadcasts or create_groups."
    broadcastsCount(search: String): Int!
    "view_broadcasts, create_broadcasts or create_groups."
    broadcast(id: ID!): BroadcastDetail!
  }

  extend type Mutation {
    "create_broadcasts or create_groups. 200 with the broadcast's recordId; 422 'Title field is required.'"
    createBroadcast(title: String, description: String): MutationResult!
    "create_broadcasts or create_groups. 422 for a body too long or a design that is not JSON."
    updateBroadcastEmail(input: BroadcastEmailInput!): MutationResult!
    "create_broadcasts or create_groups. 422 for an SMS of more than 10 parts."
    updateBroadcastMessage(input: BroadcastMessageInput!): MutationResult!
    "delete_groups. The broadcast with its schedules and delivery records; 409 while one of its schedules is sending."
    deleteBroadcast(id: ID!): MutationResult!
    """
    create_groups. channel BOTH (default), SMS or EMAIL; customerGroups: one or more of the
    organization's groups (another organization's: 404); dispatchAt: "now" (default) or an ISO 8601
    time (UTC without a zone), not in the past and within a year. 422 when the broadcast has no content
    for the channel. 200 with the schedule's recordId.
    """
    scheduleBroadcast(id: ID!, channel: String, customerGroups: [ID!]!, dispatchAt: String): MutationResult!
    "create_groups. Only a Scheduled schedule can be cancelled (409 otherwise)."
    cancelBroadcastSchedule(id: ID!): MutationResult!
  }
`;

type DetailParent = Broadcast & { ctx: OrgContext };

/** Parsed through the page's schema, or the refusal with its first message (422). */
function parsed<S extends ZodTypeAny>(schema: S, form: Record<string, unknown>): { data: z.output<S> } | { refusal: MutationResult } {
  const result = schema.safeParse(form);
  return result.success ? { data: result.data } : { refusal: refused(422, result.error.issues[0]?.message ?? "Invalid input.") };
}

/** The argument as a form field: null and undefined are left out. */
const field = (value: string | null | undefined) => value ?? undefined;

export const resolvers: Resolvers = {
  Query: {
    async broadcasts(_, args: PageArgs & { order?: string }, context) {
      checkOrder(args.order, "created_at desc");
      return (await listBroadcasts(await context.org(), pageOf(args))).rows;
    },
    async broadcastsCount(_, args: { search?: string | null }, context) {
      return (await listBroadcasts(await context.org(), { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
    async broadcast(_, args: { id: string }, context) {
      const ctx = await context.org();
      return { ...(await getBroadcast(ctx, recordId(args.id))), ctx } satisfies DetailParent;
    },
  },
  Mutation: {
    createBroadcast: (_, args: { title?: string | null; description?: string | null }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, ...EDIT_BROADCASTS);
        const values = parsed(broadcastSchema, { title: field(args.title), description: field(args.description) });
        if ("refusal" in values) return values.refusal;
        const created = await createBroadcast(ctx, values.data);
        return done(created.message, created.id);
      }),
    updateBroadcastEmail: (
      _,
      args: { input: { id: string; email?: string | null; text?: string | null; design?: string | null } },
      context,
    ) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, ...EDIT_BROADCASTS);
        const { input } = args;
        const broadcast = await getBroadcast(ctx, recordId(input.id));
        const values = parsed(broadcastEmailSchema, {
          email_html: field(input.email),
          email_text: field(input.text),
          email_design: field(input.design),
        });
        if ("refusal" in values) return { ...values.refusal, recordId: String(broadcast.id) };
        const keepText = !("text" in input);
        const saved = await updateBroadcastEmail(ctx, broadcast.id, {
          ...values.data,
          email_text: keepText ? undefined : values.data.email_text,
        });
        return done(saved.message, saved.id);
      }),
    updateBroadcastMessage: (_, args: { input: { id: string; sms?: string | null } }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, ...EDIT_BROADCASTS);
        const broadcast = await getBroadcast(ctx, recordId(args.input.id));
        const values = parsed(broadcastSmsSchema, { sms: field(args.input.sms) });
        if ("refusal" in values) return { ...values.refusal, recordId: String(broadcast.id) };
        const saved = await updateBroadcastSms(ctx, broadcast.id, values.data);
        return done(saved.message, saved.id);
      }),
    deleteBroadcast: (_, args: { id: string }, context) =>
      mutation(async () => {
        const outcome = await deleteBroadcast(await context.org(), recordId(args.id));
        return outcome.ok ? done(outcome.message, args.id) : refused(409, outcome.message, args.id);
      }),
    scheduleBroadcast: (_, args: { id: string; channel?: string | null; customerGroups: string[]; dispatchAt?: string | null }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, SCHEDULE_PERMISSION);
        const broadcast = await getBroadcast(ctx, recordId(args.id));
        // A malformed group id is not found, like another organisation's.
        if (args.customerGroups.some((id) => parseId(id) === null)) notFound(SCHEDULE_MESSAGES.groupNotFound);
        const at = args.dispatchAt?.trim();
        const now = !at || at.toLowerCase() === "now";
        const values = parsed(scheduleSchema, {
          channel: field(args.channel),
          groups: args.customerGroups,
          dispatch: now ? "now" : "later",
          dispatch_at: now ? undefined : at,
        });
        if ("refusal" in values) return { ...values.refusal, recordId: String(broadcast.id) };
        const outcome = await createSchedule(ctx, broadcast.id, values.data);
        if (!outcome.ok) return refused(422, Object.values(outcome.errors)[0]?.[0] ?? "Invalid input.", broadcast.id);
        return done(outcome.message, outcome.id);
      }),
    cancelBroadcastSchedule: (_, args: { id: string }, context) =>
      mutation(async () => {
        const outcome = await cancelSchedule(await context.org(), recordId(args.id));
        return outcome.ok ? done(outcome.message, args.id) : refused(409, outcome.message, args.id);
      }),
  },
  Broadcast: {
    createdBy: (b: BroadcastSummary) => b.owner,
    created_at: (b: BroadcastSummary) => iso(b.created_at),
  },
  BroadcastDetail: {
    createdBy: (b: DetailParent) => b.owner,
    created_at: (b: DetailParent) => iso(b.created_at),
    updated_at: (b: DetailParent) => iso(b.updated_at),
    schedules: async (b: DetailParent, args: PageArgs) =>
      (await listSchedules(b.ctx, b.id, pageOf({ limit: args.limit, offset: args.offset }))).rows,
    schedulesCount: async (b: DetailParent) => (await listSchedules(b.ctx, b.id, { offset: 0, pageSize: 1 })).total,
  },
  BroadcastSchedule: {
    customerGroups: (s: ScheduleRow) => s.groups,
    customerGroup: (s: ScheduleRow) => s.groups[0] ?? null,
    created_at: (s: ScheduleRow) => iso(s.created_at),
    dispatch_at: (s: ScheduleRow) => iso(s.dispatch_at),
  },
};
