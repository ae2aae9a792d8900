import { z } from "zod";
import { optionalText, requiredText } from "./venues";

// Voucher groups (docs/guide/plans-and-prepaid.md#vouchers, docs/guide/api.md#vouchers),
// shared by the console and the REST API. Messages are the spec's, word for word; the
// validity message checks the validity field itself (the old client checked another value).

export const VOUCHER_MESSAGES = {
  nameRequired: "Name field is required.",
  valueRequired: "Voucher value is required.",
  validityRequired: "Voucher validity is required.",
  value: "Enter the value in Kes, like 50 or 49.50.",
  validity: "Use a date like 2026-12-31, today or later.",
  plan: "Choose the service plan the vouchers give.",
  count: "Generate from 1 to 10,000 codes at a time.",
  uses: "Each code can be used from 1 to 1,000 times.",
} as const;

/** At most this many codes in one generation (spec-free; the benchmark generates 10,000 in under 2 s). */
export const MAX_CODES = 10_000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function voucherGroupSchema(today: string, creating: boolean) {
  return z.object({
    name: requiredText(VOUCHER_MESSAGES.nameRequired, 120),
    face_value: z
      .string({ required_error: VOUCHER_MESSAGES.valueRequired, invalid_type_error: VOUCHER_MESSAGES.valueRequired })
      .trim()
      .min(1, VOUCHER_MESSAGES.valueRequired)
      .regex(/^\d{1,7}(\.\d{1,2})?$/, VOUCHER_MESSAGES.value)
      .transform((v) => Math.round(Number(v) * 100)),
    valid_till: z
      .string({ required_error: VOUCHER_MESSAGES.validityRequired, invalid_type_error: VOUCHER_MESSAGES.validityRequired })
      .trim()
      .min(1, VOUCHER_MESSAGES.validityRequired)
      .refine(
        (v) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v,
        VOUCHER_MESSAGES.validity,
      )
      .refine((v) => !creating || v >= today, VOUCHER_MESSAGES.validity),
    description: optionalText(500),
    service_plan_id: z.coerce
      .number({ required_error: VOUCHER_MESSAGES.plan, invalid_type_error: VOUCHER_MESSAGES.plan })
      .int(VOUCHER_MESSAGES.plan)
      .positive(VOUCHER_MESSAGES.plan)
      .max(2 ** 31 - 1, VOUCHER_MESSAGES.plan),
    codes_count: creating
      ? z.coerce
          .number({ invalid_type_error: VOUCHER_MESSAGES.count })
          .int(VOUCHER_MESSAGES.count)
          .min(1, VOUCHER_MESSAGES.count)
          .max(MAX_CODES, VOUCHER_MESSAGES.count)
          .default(10)
      : z.any().transform(() => undefined),
    uses_per_code: z.coerce
      .number({ invalid_type_error: VOUCHER_MESSAGES.uses })
      .int(VOUCHER_MESSAGES.uses)
      .min(1, VOUCHER_MESSAGES.uses)
      .max(1000, VOUCHER_MESSAGES.uses)
      .default(1),
  });
}
export type VoucherGroupInput = z.infer<ReturnType<typeof voucherGroupSchema>>;

/** Codes are typed on phones: no 0/O, 1/I/L; shown as XXXXX-XXXXX. */
export const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const CODE_LENGTH = 10;

/** A typed code as stored: upper case, without spaces or dashes; null when it cannot be a code. */
export function normaliseCode(typed: string | null | undefined): string | null {
  const code = (typed ?? "").toUpperCase().replace(/[\s-]/g, "");
  return code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c)) ? code : null;
}

export const displayCode = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`;
