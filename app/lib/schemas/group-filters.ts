import { z } from "zod";

// The group filter structure of docs/guide/marketing.md#filters, stored as JSON in
// customer_groups.filters and edited on the group's Filters section (and by
// updateCustomerGroupFilters). The compiler is app/services/marketing/group-filter.server.ts.
//
// Meaning (the spec shows the fields, not their semantics; this is ours, tested as a table):
// - venues[] / accessPoints[]: the customer connected at one of these (empty: anywhere);
// - byDate YES: only connections inside dateRange (UTC days, both ends included, never after today)
//   count for venues, accessPoints, connections and days; NO: all connections;
// - connections / days (top level): at least this many connections / distinct days connected, counted
//   over those connections; 0 or absent: no minimum;
// - profile[]: rules over the customer's own fields, and over days / connections in total. Each rule
//   after the first joins the ones before it with its `condition`; AND binds tighter than OR, as in SQL:
//   a AND b OR c AND d = (a AND b) OR (c AND d). The first rule's condition is ignored.

export const FILTER_FIELDS = [
  "name",
  "firstName",
  "middleName",
  "lastName",
  "phoneNumber",
  "emailAddress",
  "facebook",
  "twitter",
  "days",
  "connections",
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export const FILTER_FIELD_LABELS: Record<FilterField, string> = {
  name: "Name",
  firstName: "First name",
  middleName: "Middle name",
  lastName: "Last name",
  phoneNumber: "Phone number",
  emailAddress: "Email address",
  facebook: "Facebook",
  twitter: "Twitter",
  days: "Days connected",
  connections: "Total connections",
};

export const FILTER_EQUATIONS = [
  "eq",
  "moreThan",
  "lessThan",
  "neq",
  "empty",
  "notEmpty",
  "startsWith",
  "endsWith",
  "like",
  "notLike",
] as const;
export type FilterEquation = (typeof FILTER_EQUATIONS)[number];
export const FILTER_EQUATION_LABELS: Record<FilterEquation, string> = {
  eq: "equals",
  moreThan: "more than",
  lessThan: "less than",
  neq: "not equal",
  empty: "is empty",
  notEmpty: "is not empty",
  startsWith: "starts with",
  endsWith: "ends with",
  like: "contains",
  notLike: "does not contain",
};

export const profileRuleSchema = z.object({
  condition: z.enum(["AND", "OR"]).default("AND"),
  field: z.enum(FILTER_FIELDS),
  equation: z.enum(FILTER_EQUATIONS),
  value: z.string().max(200).default(""),
});
export type ProfileRule = z.infer<typeof profileRuleSchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const groupFiltersSchema = z.object({
  byDate: z.enum(["YES", "NO"]).default("NO"),
  connections: z.coerce.number().int().min(0).max(1_000_000).default(0),
  days: z.coerce.number().int().min(0).max(100_000).default(0),
  dateRange: z
    .object({ startDate: z.string().regex(DAY), endDate: z.string().regex(DAY) })
    .nullable()
    .default(null),
  venues: z
    .array(
      z.coerce
        .number()
        .int()
        .positive()
        .max(2 ** 31 - 1),
    )
    .max(500)
    .default([]),
  accessPoints: z
    .array(
      z.coerce
        .number()
        .int()
        .positive()
        .max(2 ** 31 - 1),
    )
    .max(2000)
    .default([]),
  profile: z.array(profileRuleSchema).max(50).default([]),
});
export type GroupFilters = z.infer<typeof groupFiltersSchema>;

export const EMPTY_FILTERS: GroupFilters = {
  byDate: "NO",
  connections: 0,
  days: 0,
  dateRange: null,
  venues: [],
  accessPoints: [],
  profile: [],
};
