import { z } from "zod";
import { formatQuantity } from "~/lib/format";
import { optionalText, requiredText } from "./venues";

// Fair usage and prepaid forms (docs/guide/plans-and-prepaid.md#plan-form, #bandwidth-policies),
// shared by the console's pages and the data API's mutations. Messages the spec gives are word for word.

export const BANDWIDTH_UNITS = ["Kbps", "Mbps"] as const;
export const DURATION_UNITS = ["Mins", "Hrs", "Days"] as const;
export const DATA_UNITS = ["MBs", "GBs"] as const;
export const PLAN_KINDS = ["Unlimited", "Limited"] as const;
export const LIMIT_TYPES = ["Time", "Data", "Both"] as const;
/** How often one device may take the free plan. */
export const FREE_EVERY = [
  { value: "day", label: "Once a day" },
  { value: "week", label: "Once a week" },
  { value: "validity", label: "Again when the last one has ended" },
] as const;

export const PLAN_MESSAGES = {
  nameRequired: "Name field is required.",
  priceTooLow: "Service plan price can not be less than Ksh 1",
  price: "Enter the price in Kes, like 50 or 49.50.",
  whole: "Enter a whole number from 1 to 1,000,000.",
  connections: "Enter a whole number of simultaneous connections from 1 to 100.",
  timeLimit: "Enter the time limit: a whole number from 1 to 1,000,000.",
  usageLimit: "Enter the data limit: a whole number from 1 to 1,000,000.",
  validity: "Enter the validity: a whole number from 1 to 1,000,000.",
  unknownPolicy: "Choose one of this organization's bandwidth policies.",
  code: "Use up to 20 letters, digits and dashes for the code.",
  codeTaken: "Another plan of this organization already has this code.",
  bandwidth: "Enter a speed: a whole number from 1 to 1,000,000.",
  oneFreePlan: "This organization already has a free plan.",
  /** Not in the spec: a time limit the validity ends before could never be used up. */
  timeLimitOverValidity: "The time limit can not be longer than the validity.",
} as const;

const choice = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.enum(values, { errorMap: () => ({ message: `Choose ${values.join(", ")}.` }) }).default(fallback as never);

const wholeNumber = (message: string, max = 1_000_000) =>
  z.coerce.number({ invalid_type_error: message, required_error: message }).int(message).min(1, message).max(max, message);

const optionalWhole = (message: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      const n = Number(v);
      if (!/^\d{1,7}$/.test(v) || n < 1 || n > 1_000_000) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message });
        return z.NEVER;
      }
      return n;
    });

/** Bandwidth policy form: defaults 1 Mbps up and down (docs/guide/plans-and-prepaid.md#bandwidth-policies). */
export const bandwidthPolicySchema = z.object({
  name: requiredText(PLAN_MESSAGES.nameRequired, 120),
  max_upload: wholeNumber(PLAN_MESSAGES.bandwidth).default(1),
  max_upload_unit: choice(BANDWIDTH_UNITS, "Mbps"),
  max_download: wholeNumber(PLAN_MESSAGES.bandwidth).default(1),
  max_download_unit: choice(BANDWIDTH_UNITS, "Mbps"),
  description: optionalText(500),
});
export type BandwidthPolicyInput = z.infer<typeof bandwidthPolicySchema>;

const PRICE = /^\d{1,7}(\.\d{1,2})?$/;

/**
 * Service plan form (docs/guide/plans-and-prepaid.md#plan-form; defaults: Unlimited, Time, Mins,
 * MBs, 1 connection, validity 1 Hrs, price 0). `free` is the route's flag, not a field: a free
 * plan has no price.
 */
export function servicePlanSchema(free: boolean) {
  return z
    .object({
      name: requiredText(PLAN_MESSAGES.nameRequired, 120),
      code: z
        .string()
        .trim()
        .optional()
        .transform((v) => (v ? v.toUpperCase() : null))
        .pipe(
          z
            .string()
            .regex(/^[A-Z0-9-]{1,20}$/, PLAN_MESSAGES.code)
            .nullable(),
        ),
      description: optionalText(500),
      bandwidth_policy_id: z
        .string()
        .trim()
        .optional()
        .transform((v, ctx) => {
          if (!v) return null;
          if (!/^\d{1,9}$/.test(v) || Number(v) < 1) {
            ctx.addIssue({ code: z.ZodIssueCode.custom, message: PLAN_MESSAGES.unknownPolicy });
            return z.NEVER;
          }
          return Number(v);
        }),
      plan_kind: choice(PLAN_KINDS, "Unlimited"),
      limit_type: choice(LIMIT_TYPES, "Time"),
      time_limit: optionalWhole(PLAN_MESSAGES.timeLimit),
      time_limit_unit: choice(DURATION_UNITS, "Mins"),
      usage_limit: optionalWhole(PLAN_MESSAGES.usageLimit),
      usage_limit_unit: choice(DATA_UNITS, "MBs"),
      simultaneous_connections: wholeNumber(PLAN_MESSAGES.connections, 100).default(1),
      validity: wholeNumber(PLAN_MESSAGES.validity).default(1),
      validity_units: choice(DURATION_UNITS, "Hrs"),
      price: z
        .string()
        .trim()
        .optional()
        .transform((v, ctx) => {
          if (free) return 0;
          if (v && !PRICE.test(v)) {
            ctx.addIssue({ code: z.ZodIssueCode.custom, message: PLAN_MESSAGES.price });
            return z.NEVER;
          }
          const cents = v ? Math.round(Number(v) * 100) : 0;
          // Checked here rather than in superRefine, which zod skips while another field is invalid.
          if (cents < 100) {
            ctx.addIssue({ code: z.ZodIssueCode.custom, message: PLAN_MESSAGES.priceTooLow });
            return z.NEVER;
          }
          return cents;
        }),
      free_every: z.enum(["day", "week", "validity"]).default("day"),
    })
    .superRefine((plan, ctx) => {
      if (plan.plan_kind === "Limited") {
        if (plan.limit_type !== "Data" && plan.time_limit === null)
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["time_limit"], message: PLAN_MESSAGES.timeLimit });
        if (plan.limit_type !== "Time" && plan.usage_limit === null)
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["usage_limit"], message: PLAN_MESSAGES.usageLimit });
        if (
          plan.limit_type !== "Data" &&
          plan.time_limit !== null &&
          plan.time_limit * MINUTES[plan.time_limit_unit] > plan.validity * MINUTES[plan.validity_units]
        )
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["time_limit"], message: PLAN_MESSAGES.timeLimitOverValidity });
      }
    });
}
export type ServicePlanInput = z.infer<ReturnType<typeof servicePlanSchema>>;

export const MINUTES: Record<(typeof DURATION_UNITS)[number], number> = { Mins: 1, Hrs: 60, Days: 1440 };
export const BYTES: Record<(typeof DATA_UNITS)[number], number> = { MBs: 1024 ** 2, GBs: 1024 ** 3 };
export const KBPS: Record<(typeof BANDWIDTH_UNITS)[number], number> = { Kbps: 1, Mbps: 1000 };

/** "30 minutes", "1 day", "200 MB", "Unlimited". */
export function limitText(value: number | null, unit: string | null): string {
  return value === null || unit === null ? "Unlimited" : formatQuantity(value, unit);
}

/** Kes from cents: "Kes 49.50", "Kes 50". */
export function priceText(cents: number): string {
  return `Kes ${cents % 100 === 0 ? (cents / 100).toLocaleString("en-KE") : (cents / 100).toLocaleString("en-KE", { minimumFractionDigits: 2 })}`;
}
