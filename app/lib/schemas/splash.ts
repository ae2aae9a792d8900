import { z } from "zod";
import { optionalText, requiredText } from "./venues";

// Splash pages (docs/guide/splash-pages.md#splash-pages-list, #splash-page-details, #presentation),
// shared by the console's forms and the REST API. Messages the spec gives are word for word.

export const CSS_TEMPLATES = ["tailwind.css", "bootstrap4.css", "bootstrap3.css"] as const;

export const SPLASH_MESSAGES = {
  nameRequired: "Name field is required.",
  notAllowedToEdit: "Not allowed to edit splash page",
  notAllowedToEditConfigs: "Not allowed to edit page configurations",
  cssTemplate: "Choose tailwind.css, bootstrap4.css or bootstrap3.css.",
  type: "Choose the drag and drop builder (1) or the code editor (2).",
  tooLong: "This is too long for a splash page.",
  notSetUp: "Set up the page (builder, code editor or a template) before publishing it.",
  published: "Splash page published: guests see it from now on.",
  unknownTemplate: "There is no such template.",
  accessPoints: "Choose at least one access point.",
  unknownAccessPoint: "One of the access points is not in this organization.",
  date: "Use a date like 2026-12-31.",
  dateOrder: "The end date cannot be before the start date.",
  factor: "Choose After or On.",
  factorType: "Choose Session or Day.",
  factorCount: "Use a whole number from 1 to 1000.",
} as const;

/** The largest page parts we keep: a generous hand-written page, a builder project with its components. */
export const SPLASH_LIMITS = {
  html: 256 * 1024,
  css: 256 * 1024,
  custom_scripts: 64 * 1024,
  project_data: 1536 * 1024,
  configValue: 2000,
} as const;

const code = (max: number) =>
  z
    .string()
    .max(max, SPLASH_MESSAGES.tooLong)
    .optional()
    .transform((v) => v ?? "");

/** Create and Details: Page name, Styling template, Description. */
export const splashPageSchema = z.object({
  name: requiredText(SPLASH_MESSAGES.nameRequired, 120),
  css_template: z.enum(CSS_TEMPLATES, { errorMap: () => ({ message: SPLASH_MESSAGES.cssTemplate }) }).default("tailwind.css"),
  description: optionalText(500),
});
export type SplashPageInput = z.infer<typeof splashPageSchema>;

/** The set-up screen's choice. */
export const splashTypeSchema = z.object({
  type: z.coerce.number({ invalid_type_error: SPLASH_MESSAGES.type }).refine((t) => t === 1 || t === 2, SPLASH_MESSAGES.type),
});

/** Code saves: any of html, css, custom_scripts (the HTML, Styles and Scripts tabs each post one). */
export const splashCodeSchema = z.object({
  html: code(SPLASH_LIMITS.html).optional(),
  css: code(SPLASH_LIMITS.css).optional(),
  custom_scripts: code(SPLASH_LIMITS.custom_scripts).optional(),
});
export type SplashCodeInput = z.infer<typeof splashCodeSchema>;

/** The builder's save: its project data and what it exports. */
export const splashBuilderSchema = z.object({
  project_data: z
    .string()
    .max(SPLASH_LIMITS.project_data, SPLASH_MESSAGES.tooLong)
    .refine((v) => {
      try {
        const parsed: unknown = JSON.parse(v);
        return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
      } catch {
        return false;
      }
    }, "The builder's project could not be read."),
  html: code(SPLASH_LIMITS.html),
  css: code(SPLASH_LIMITS.css),
});
export type SplashBuilderInput = z.infer<typeof splashBuilderSchema>;

/** PUT splash_pages/configs/{id}: the option's current value (empty: back to the initial value). */
export const splashConfigSchema = z.object({
  custom_value: z
    .string()
    .max(SPLASH_LIMITS.configValue, SPLASH_MESSAGES.tooLong)
    .optional()
    .transform((v) => v ?? ""),
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const optionalDate = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (!v) return null;
    const day = new Date(`${v}T00:00:00Z`);
    if (!DATE.test(v) || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== v) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: SPLASH_MESSAGES.date });
      return z.NEVER;
    }
    return v;
  });

/** POST splash_pages/display_settings; the defaults: After, 1, Day (docs/guide/splash-pages.md#presentation). */
export const displaySettingSchema = z
  .object({
    splash_page_id: z.coerce.number().int().positive().optional(),
    access_points: z
      .array(
        z.coerce
          .number({ invalid_type_error: SPLASH_MESSAGES.unknownAccessPoint })
          .int()
          .positive()
          .max(2 ** 31 - 1),
        {
          required_error: SPLASH_MESSAGES.accessPoints,
        },
      )
      .min(1, SPLASH_MESSAGES.accessPoints)
      .max(500)
      .transform((ids) => [...new Set(ids)]),
    start_date: optionalDate,
    end_date: optionalDate,
    factor: z.enum(["After", "On"], { errorMap: () => ({ message: SPLASH_MESSAGES.factor }) }).default("After"),
    factor_count: z.coerce
      .number({ invalid_type_error: SPLASH_MESSAGES.factorCount })
      .int(SPLASH_MESSAGES.factorCount)
      .min(1, SPLASH_MESSAGES.factorCount)
      .max(1000, SPLASH_MESSAGES.factorCount)
      .default(1),
    factor_type: z.enum(["Session", "Day"], { errorMap: () => ({ message: SPLASH_MESSAGES.factorType }) }).default("Day"),
  })
  .superRefine((v, ctx) => {
    if (v.start_date && v.end_date && v.end_date < v.start_date)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["end_date"], message: SPLASH_MESSAGES.dateOrder });
  });
export type DisplaySettingInput = z.infer<typeof displaySettingSchema>;

/** "After 3 Sessions", "On 2 Days" (the Presentation table's rule text). */
export function ruleText(rule: { factor: string; factor_count: number; factor_type: string }): string {
  return `${rule.factor} ${rule.factor_count} ${rule.factor_type}${rule.factor_count === 1 ? "" : "s"}`;
}
