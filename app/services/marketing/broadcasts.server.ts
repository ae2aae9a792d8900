// Broadcasts (docs/guide/marketing.md#broadcasts,
// docs/guide/access-control.md#what-each-permission-shows, docs/guide/api.md#data-api-graphql): a
// message's content (title = the e-mail's subject, description, the e-mail as HTML and plain text
// with an optional designer JSON, the SMS text) and, for its Messages section, what its schedules
// delivered. Every function takes the guard's context first, checks the permission the page checks
// and filters by ctx.org.id; another organisation's id is a 404.
//
// Permissions (docs/guide/access-control.md#what-each-permission-shows): seeing needs
// view_broadcasts or create_broadcasts (the menu section), or create_groups (the spec's New Message
// button: who may write a message may read it back); writing needs create_broadcasts or
// create_groups; deleting delete_groups. Schedules: schedules.server.ts.
import type { Updateable } from "kysely";
import { db } from "~/db/db.server";
import type { BroadcastsTable, DeliveryStatus } from "~/db/schema";
import { containsText } from "~/db/sql.server";
import { PERSONAL_DATA_PERMISSION, type Permission } from "~/lib/permissions";
import type { BroadcastEmailInput, BroadcastInput, BroadcastSmsInput } from "~/lib/schemas/broadcasts";
import { customerName } from "../connections.server";
import { cleanProject } from "../editor-content.server";
import { notFound, requirePermission, type OrgContext } from "../guard.server";

export const VIEW_BROADCASTS: Permission[] = ["view_broadcasts", "create_broadcasts", "create_groups"];
export const EDIT_BROADCASTS: Permission[] = ["create_broadcasts", "create_groups"];
export const DELETE_BROADCASTS: Permission = "delete_groups";

export const BROADCAST_RESULT_MESSAGES = {
  notFound: "Broadcast not found.",
  created: "Broadcast created.",
  updated: "Broadcast settings saved.",
  emailSaved: "E-mail saved.",
  smsSaved: "SMS saved.",
  deleted: (title: string) => `Broadcast ${title} deleted.`,
  sending: "This broadcast is being sent: delete it when the sending has ended.",
} as const;

/** The delete confirmation of docs/guide/marketing.md#broadcasts, word for word. */

/** The per-recipient statuses of the Messages section, in the order its totals show them. */
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["queued", "sent", "delivered", "failed", "bounced", "opted_out"];

const broadcasts = (ctx: OrgContext) =>
  db
    .selectFrom("broadcasts")
    .leftJoin("users", "users.id", "broadcasts.created_by_user_id")
    .where("broadcasts.organization_id", "=", ctx.org.id);

const LIST_COLUMNS = [
  "broadcasts.id",
  "broadcasts.title",
  "broadcasts.description",
  "broadcasts.created_at",
  "broadcasts.created_by_user_id",
  "users.first_name as owner_first_name",
  "users.last_name as owner_last_name",
] as const;

export interface BroadcastSummary {
  id: number;
  title: string;
  description: string | null;
  created_at: number;
  owner: { id: number; first_name: string; last_name: string } | null;
}

function summary(r: {
  id: number;
  title: string;
  description: string | null;
  created_at: number | string;
  created_by_user_id: number | null;
  owner_first_name: string | null;
  owner_last_name: string | null;
}): BroadcastSummary {
  return {
    id: Number(r.id),
    title: r.title,
    description: r.description,
    created_at: Number(r.created_at),
    owner:
      r.created_by_user_id === null
        ? null
        : { id: Number(r.created_by_user_id), first_name: r.owner_first_name ?? "", last_name: r.owner_last_name ?? "" },
  };
}

/** broadcasts: newest first (Title, Created on, Owner, Description); search looks in titles. */
export async function listBroadcasts(ctx: OrgContext, params: { offset: number; pageSize: number; search?: string | null }) {
  requirePermission(ctx, ...VIEW_BROADCASTS);
  let query = broadcasts(ctx);
  if (params.search) query = query.where(containsText("broadcasts.title", params.search));
  const [rows, total] = await Promise.all([
    query
      .select([...LIST_COLUMNS])
      .orderBy("broadcasts.created_at", "desc")
      .orderBy("broadcasts.id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(summary), total: Number(total.n) };
}

export type Broadcast = BroadcastSummary & {
  sms: string | null;
  email_html: string | null;
  email_text: string | null;
  email_design: string | null;
  updated_at: number;
};

/**
 * broadcast(id): the whole message; a missing, malformed or foreign id is a 404. The design is cleaned
 * of anything that could make script in the designer's canvas as it is read too (designs stored before).
 */
export async function getBroadcast(ctx: OrgContext, id: number | null): Promise<Broadcast> {
  requirePermission(ctx, ...VIEW_BROADCASTS);
  if (id === null) notFound(BROADCAST_RESULT_MESSAGES.notFound);
  const row = await broadcasts(ctx)
    .select([
      ...LIST_COLUMNS,
      "broadcasts.sms",
      "broadcasts.email_html",
      "broadcasts.email_text",
      "broadcasts.email_design",
      "broadcasts.updated_at",
    ])
    .where("broadcasts.id", "=", id)
    .executeTakeFirst();
  if (!row) notFound(BROADCAST_RESULT_MESSAGES.notFound);
  return {
    ...summary(row),
    sms: row.sms,
    email_html: row.email_html,
    email_text: row.email_text,
    email_design: cleanProject(row.email_design),
    updated_at: Number(row.updated_at),
  };
}

/** broadcasts/create (createBroadcast): a title (the e-mail's subject) and a description; the content comes next. */
export async function createBroadcast(ctx: OrgContext, input: BroadcastInput): Promise<{ id: number; message: string }> {
  requirePermission(ctx, ...EDIT_BROADCASTS);
  const now = Date.now();
  const row = await db
    .insertInto("broadcasts")
    .values({
      organization_id: ctx.org.id,
      title: input.title,
      description: input.description,
      sms: null,
      email_html: null,
      email_text: null,
      email_design: null,
      created_by_user_id: ctx.user.id,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), message: BROADCAST_RESULT_MESSAGES.created };
}

/** Writes some of a broadcast's fields after finding it in the organisation (404 otherwise). */
async function update(
  ctx: OrgContext,
  id: number | null,
  values: Pick<Updateable<BroadcastsTable>, "title" | "description" | "sms" | "email_html" | "email_text" | "email_design">,
) {
  requirePermission(ctx, ...EDIT_BROADCASTS);
  const broadcast = await getBroadcast(ctx, id);
  await db
    .updateTable("broadcasts")
    .set({ ...values, updated_at: Date.now() })
    .where("id", "=", broadcast.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
  return broadcast.id;
}

/** The settings section: title and description. */
export async function updateBroadcastSettings(ctx: OrgContext, id: number | null, input: BroadcastInput) {
  return { id: await update(ctx, id, { title: input.title, description: input.description }), message: BROADCAST_RESULT_MESSAGES.updated };
}

/**
 * The e-mail section (updateBroadcastEmail): the HTML and plain-text bodies. The design is the JSON
 * of the designer that made this HTML; saving HTML without one clears it, as it no longer describes
 * the HTML. The design is stored cleaned of anything that could make script when the designer opens it
 * in the console (the HTML is the e-mail itself, as its writer made it). `email_text` undefined keeps
 * the stored plain text (the data API's input may leave it out).
 */
export async function updateBroadcastEmail(
  ctx: OrgContext,
  id: number | null,
  input: Omit<BroadcastEmailInput, "email_text"> & { email_text?: string | null },
) {
  const values: Parameters<typeof update>[2] = { email_html: input.email_html, email_design: cleanProject(input.email_design) };
  if (input.email_text !== undefined) values.email_text = input.email_text;
  return { id: await update(ctx, id, values), message: BROADCAST_RESULT_MESSAGES.emailSaved };
}

/** The SMS section (updateBroadcastMessage). */
export async function updateBroadcastSms(ctx: OrgContext, id: number | null, input: BroadcastSmsInput) {
  return { id: await update(ctx, id, { sms: input.sms }), message: BROADCAST_RESULT_MESSAGES.smsSaved };
}

export type DeleteOutcome = { ok: true; message: string } | { ok: false; message: string };

/**
 * deleteBroadcast (delete_groups): the broadcast, its schedules and their delivery records. Refused
 * while one of its schedules is being sent, so a dispatch never loses its rows half-way.
 */
export async function deleteBroadcast(ctx: OrgContext, id: number | null): Promise<DeleteOutcome> {
  requirePermission(ctx, DELETE_BROADCASTS);
  const broadcast = await getBroadcastForDelete(ctx, id);
  const sending = await db
    .selectFrom("broadcast_schedules")
    .select("id")
    .where("broadcast_id", "=", broadcast.id)
    .where("organization_id", "=", ctx.org.id)
    .where("status", "=", "Sending")
    .executeTakeFirst();
  if (sending) return { ok: false, message: BROADCAST_RESULT_MESSAGES.sending };
  await db.deleteFrom("broadcasts").where("id", "=", broadcast.id).where("organization_id", "=", ctx.org.id).execute();
  return { ok: true, message: BROADCAST_RESULT_MESSAGES.deleted(broadcast.title) };
}

/** delete_groups alone is enough to delete (the spec's check), without a view permission. */
async function getBroadcastForDelete(ctx: OrgContext, id: number | null) {
  if (id === null) notFound(BROADCAST_RESULT_MESSAGES.notFound);
  const row = await db
    .selectFrom("broadcasts")
    .select(["id", "title"])
    .where("id", "=", id)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound(BROADCAST_RESULT_MESSAGES.notFound);
}

export interface DeliveryRow {
  id: number;
  schedule_id: number;
  channel: "SMS" | "EMAIL";
  status: DeliveryStatus;
  /** The customer's name and the address used: null without view_clients. */
  customer: { id: number; name: string; address: string } | null;
  error: string | null;
  sent_at: number | null;
  delivered_at: number | null;
  updated_at: number;
}

/**
 * The Messages section: the deliveries of the broadcast's schedules, newest first, paged, with the
 * totals per status over all of them. Guests' names and addresses need view_clients.
 */
export async function broadcastDeliveries(ctx: OrgContext, broadcastId: number | null, page: { offset: number; pageSize: number }) {
  const broadcast = await getBroadcast(ctx, broadcastId);
  const personal = ctx.permissions.has(PERSONAL_DATA_PERMISSION);
  const deliveries = db
    .selectFrom("broadcast_deliveries")
    .innerJoin("broadcast_schedules", "broadcast_schedules.id", "broadcast_deliveries.schedule_id")
    .where("broadcast_schedules.broadcast_id", "=", broadcast.id)
    .where("broadcast_schedules.organization_id", "=", ctx.org.id)
    .where("broadcast_deliveries.organization_id", "=", ctx.org.id);
  const [rows, counts] = await Promise.all([
    deliveries
      .leftJoin("customers", (join) =>
        join.onRef("customers.id", "=", "broadcast_deliveries.customer_id").on("customers.organization_id", "=", ctx.org.id),
      )
      .select([
        "broadcast_deliveries.id",
        "broadcast_deliveries.schedule_id",
        "broadcast_deliveries.customer_id",
        "broadcast_deliveries.channel",
        "broadcast_deliveries.address",
        "broadcast_deliveries.status",
        "broadcast_deliveries.error",
        "broadcast_deliveries.sent_at",
        "broadcast_deliveries.delivered_at",
        "broadcast_deliveries.updated_at",
        "customers.identity",
        "customers.first_name",
        "customers.last_name",
      ])
      .orderBy("broadcast_deliveries.id", "desc")
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    deliveries
      .select(["broadcast_deliveries.status", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("broadcast_deliveries.status")
      .execute(),
  ]);
  const totals = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>;
  for (const c of counts) totals[c.status] = Number(c.n);
  const total = DELIVERY_STATUSES.reduce((sum, s) => sum + totals[s], 0);
  return {
    broadcast,
    total,
    totals,
    rows: rows.map((r): DeliveryRow => ({
      id: Number(r.id),
      schedule_id: Number(r.schedule_id),
      channel: r.channel,
      status: r.status,
      customer: personal
        ? {
            id: Number(r.customer_id),
            // The record outlives the customer: a deleted customer is shown by the address used.
            name:
              r.identity === null ? r.address : customerName({ first_name: r.first_name, last_name: r.last_name, identity: r.identity }),
            address: r.address,
          }
        : null,
      error: r.error,
      sent_at: r.sent_at === null ? null : Number(r.sent_at),
      delivered_at: r.delivered_at === null ? null : Number(r.delivered_at),
      updated_at: Number(r.updated_at),
    })),
  };
}
