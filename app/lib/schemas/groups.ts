import { z } from "zod";
import {
  FILTER_EQUATIONS,
  FILTER_FIELDS,
  groupFiltersSchema,
  type FilterEquation,
  type FilterField,
  type GroupFilters,
  type ProfileRule,
} from "./group-filters";
import { optionalText, requiredText } from "./venues";

// Customer groups (docs/guide/marketing.md#customer-groups, docs/guide/api.md#data-api-graphql): the
// group form (name, description) and the Filters form, shared by the console and the data API. The spec
// marks the name required and never checks it; we check it with the voucher form's sentence.

export const GROUP_MESSAGES = {
  nameRequired: "Name field is required.",
  created: "Customer group created.",
  updated: "Customer group updated.",
  filtersSaved: "Group filters saved.",
  deleted: "Customer group deleted.",
  notFound: "Customer group not found.",
  deleteQuestion: "Are you sure you want to delete this customers group?",
  filtersJson: "filters must be the group filter structure as JSON text.",
  datesRequired: "Choose the start and end dates.",
  dateFormat: "Use a date like 2026-11-25.",
  dateAfterToday: "Dates cannot be after today.",
  datesOrder: "The start date cannot be after the end date.",
  minimum: "Enter a whole number from 0.",
  valueRequired: "Enter a value for this rule.",
  wholeNumber: "Enter a whole number.",
  numberEquation: "Days connected and Total connections take equals, not equal, more than, less than, is empty or is not empty.",
  textEquation: "Names and contacts cannot be compared with more than or less than.",
  foreignVenue: "Choose networks of this organization.",
  foreignAccessPoint: "Choose access points of this organization.",
} as const;

export const groupSchema = z.object({
  name: requiredText(GROUP_MESSAGES.nameRequired, 120),
  description: optionalText(500),
});
export type GroupInput = z.infer<typeof groupSchema>;

const NUMERIC: readonly FilterField[] = ["days", "connections"];
const TEXT_ONLY: readonly FilterEquation[] = ["startsWith", "endsWith", "like", "notLike"];
const NUMBER_ONLY: readonly FilterEquation[] = ["moreThan", "lessThan"];
const NO_VALUE: readonly FilterEquation[] = ["empty", "notEmpty"];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A number rule's value: a whole number of at most nine digits. */
export const WHOLE_NUMBER = /^\d{1,9}$/;

const isDay = (v: string) =>
  DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/**
 * What the filter form (and updateCustomerGroupFilters) refuses beyond the structure itself, each with
 * the path of the field to show it on. The compiler answers nobody for these (group-filter.server.ts).
 */
export function filterIssues(filters: GroupFilters, today: string): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  if (filters.byDate === "YES") {
    const range = filters.dateRange;
    if (!range?.startDate || !range.endDate) issues.push({ path: ["dateRange", "startDate"], message: GROUP_MESSAGES.datesRequired });
    else {
      for (const key of ["startDate", "endDate"] as const) {
        if (!isDay(range[key])) issues.push({ path: ["dateRange", key], message: GROUP_MESSAGES.dateFormat });
        else if (range[key] > today) issues.push({ path: ["dateRange", key], message: GROUP_MESSAGES.dateAfterToday });
      }
      if (issues.length === 0 && range.startDate > range.endDate)
        issues.push({ path: ["dateRange", "startDate"], message: GROUP_MESSAGES.datesOrder });
    }
  }
  filters.profile.forEach((rule, i) => {
    const issue = ruleIssue(rule);
    if (issue) issues.push({ path: ["profile", i, issue.field], message: issue.message });
  });
  return issues;
}

function ruleIssue(rule: ProfileRule): { field: "equation" | "value"; message: string } | null {
  const numeric = NUMERIC.includes(rule.field);
  if (numeric && TEXT_ONLY.includes(rule.equation)) return { field: "equation", message: GROUP_MESSAGES.numberEquation };
  if (!numeric && NUMBER_ONLY.includes(rule.equation)) return { field: "equation", message: GROUP_MESSAGES.textEquation };
  if (NO_VALUE.includes(rule.equation)) return null;
  const value = rule.value.trim();
  if (!value) return { field: "value", message: GROUP_MESSAGES.valueRequired };
  if (numeric && !WHOLE_NUMBER.test(value)) return { field: "value", message: GROUP_MESSAGES.wholeNumber };
  return null;
}

/** The stored structure, checked as the form checks it (updateCustomerGroupFilters' JSON). */
export function checkedFiltersSchema(today: string) {
  return groupFiltersSchema.superRefine((filters, ctx) => {
    for (const issue of filterIssues(filters, today)) ctx.addIssue({ code: z.ZodIssueCode.custom, ...issue });
  });
}

/** A multi-select posts one value as a string and none as nothing: always an array. */
const list = (max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(
        z.coerce
          .number()
          .int()
          .positive()
          .max(2 ** 31 - 1),
      )
      .max(max),
  );

const minimum = (max: number) =>
  z.coerce
    .number({ invalid_type_error: GROUP_MESSAGES.minimum })
    .int(GROUP_MESSAGES.minimum)
    .min(0, GROUP_MESSAGES.minimum)
    .max(max, GROUP_MESSAGES.minimum)
    .default(0);

/**
 * The Filters section's form: the fields are named as the structure (byDate, dateRange.startDate,
 * venues, profile[0].field …), so conform's list intents add and remove profile[] rows without
 * JavaScript. A date range is kept only with byDate YES.
 */
export function groupFiltersFormSchema(today: string) {
  return z
    .object({
      byDate: z.enum(["YES", "NO"]).default("NO"),
      dateRange: z.object({ startDate: z.string().trim().default(""), endDate: z.string().trim().default("") }).default({}),
      connections: minimum(1_000_000),
      days: minimum(100_000),
      venues: list(500),
      accessPoints: list(2000),
      profile: z
        .array(
          z.object({
            condition: z.enum(["AND", "OR"]).default("AND"),
            field: z.enum(FILTER_FIELDS),
            equation: z.enum(FILTER_EQUATIONS),
            value: z.string().trim().max(200).default(""),
          }),
        )
        .max(50)
        .default([]),
    })
    .transform((form): GroupFilters => ({
      ...form,
      dateRange: form.byDate === "YES" ? form.dateRange : null,
      venues: [...new Set(form.venues)],
      accessPoints: [...new Set(form.accessPoints)],
    }))
    .superRefine((filters, ctx) => {
      for (const issue of filterIssues(filters, today)) ctx.addIssue({ code: z.ZodIssueCode.custom, ...issue });
    });
}

/** A stored structure as the form's default values. */
export function filtersFormValues(filters: GroupFilters) {
  return {
    byDate: filters.byDate,
    dateRange: { startDate: filters.dateRange?.startDate ?? "", endDate: filters.dateRange?.endDate ?? "" },
    connections: String(filters.connections),
    days: String(filters.days),
    venues: filters.venues.map(String),
    accessPoints: filters.accessPoints.map(String),
    profile: filters.profile.map((r) => ({ ...r })),
  };
}

/** A new profile rule's values (the Add rule button). */
export const NEW_RULE = { condition: "AND", field: "firstName", equation: "eq", value: "" } as const;
