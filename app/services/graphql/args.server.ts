// Arguments of the data API as the services want them. The pages clamp what a URL says; a script
// gets a clear error instead (a limit of 1,000 that silently became 250 would lose rows unnoticed).
import { parseId } from "~/lib/ids";
import { normaliseMac } from "~/lib/mac";
import { parseDashboardFilters, type DashboardFilters } from "../dashboard.server";
import { notFound, type OrgContext } from "../guard.server";
import { badInput } from "./errors.server";

/** Every list answers at most this many rows (docs/guide/README.md#shared-behaviour). */
export const MAX_PAGE_SIZE = 250;
export const DEFAULT_PAGE_SIZE = 10;
/** Offsets past this are refused: a deep offset walks that many index entries (decision 0006). */
export const MAX_OFFSET = 1_000_000;
const MAX_SEARCH = 100;
/** The dashboard's cap on chosen venues (dashboard.server.ts). */
const MAX_VENUES = 200;

export interface PageArgs {
  limit?: number | null;
  offset?: number | null;
  search?: string | null;
}

export interface Page {
  offset: number;
  pageSize: number;
  search: string;
}

export function pageOf(args: PageArgs, max = MAX_PAGE_SIZE): Page {
  const pageSize = args.limit ?? DEFAULT_PAGE_SIZE;
  if (pageSize < 1 || pageSize > max) badInput(`limit must be between 1 and ${max}.`);
  const offset = args.offset ?? 0;
  if (offset < 0 || offset > MAX_OFFSET) badInput(`offset must be between 0 and ${MAX_OFFSET.toLocaleString("en-US")}.`);
  return { offset, pageSize, search: searchOf(args.search) };
}

export function searchOf(search: string | null | undefined): string {
  const term = (search ?? "").trim();
  if (term.length > MAX_SEARCH) badInput(`search must be at most ${MAX_SEARCH} characters.`);
  return term;
}

/** The spec's `order` argument: each list has one order, named as the spec names it. */
export function checkOrder(order: string | null | undefined, allowed: string): void {
  if (order !== null && order !== undefined && order.trim().toLowerCase() !== allowed) badInput(`order must be '${allowed}'.`);
}

const DATE = /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z?)?$/;

/**
 * A startDate/endDate: YYYY-MM-DD, or with a time ("2026-11-20 23:59:59", as the old client sent the
 * ends of its days); the day is what counts. Null when absent (today, like the pages).
 */
export function dayOf(value: string | null | undefined, name: string): string | null {
  if (value === null || value === undefined || value === "") return null;
  const day = DATE.exec(value.trim())?.[1];
  const ms = day ? Date.parse(`${day}T00:00:00Z`) : NaN;
  if (!day || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) badInput(`${name} must be a date as YYYY-MM-DD.`);
  return day;
}

export interface WindowArgs {
  venues?: readonly string[] | null;
  startDate?: string | null;
  endDate?: string | null;
}

/**
 * The date range and venues of an analytics call, checked exactly as the dashboard checks its URL
 * (parseDashboardFilters: a foreign or malformed venue id is a 404; dates after today are today).
 */
export async function windowOf(ctx: OrgContext, args: WindowArgs): Promise<DashboardFilters> {
  const params = new URLSearchParams();
  const start = dayOf(args.startDate, "startDate");
  const end = dayOf(args.endDate, "endDate");
  if (start) params.set("start", start);
  if (end) params.set("end", end);
  const venues = args.venues ?? [];
  if (venues.length > MAX_VENUES) badInput(`venues may name at most ${MAX_VENUES} networks.`);
  for (const id of venues) params.append("venues", id);
  return parseDashboardFilters(ctx, new URL(`http://graphql.invalid/?${params}`));
}

/**
 * The one id of a filter the lists take one of (venues, customers, devices, accessPoints): the
 * services filter by one each, as the pages do. A malformed id is not found, like an unknown one.
 */
export function oneId(ids: readonly string[] | null | undefined, name: string): number | undefined {
  if (!ids || ids.length === 0) return undefined;
  if (ids.length > 1) badInput(`${name} takes one id at a time.`);
  return parseId(ids[0]) ?? notFound();
}

/** A record id argument: null when malformed, which the services answer as not found. */
export const recordId = (raw: string | number | null | undefined) => parseId(raw);

/** A MAC address argument in its stored form, or null (not found). */
export const macOf = (raw: string) => normaliseMac(raw);
