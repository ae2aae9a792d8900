import { z } from "zod";
import { optionalText, requiredText } from "./venues";

// Surveys (docs/guide/surveys.md#routes, #survey-report, #create-survey, #survey-list,
// docs/guide/api.md#survey-service). One schema for the create and edit forms and for POST/PUT
// /api/v1/survey; one for the report's query and POST /api/v1/survey/responses. Messages from
// the spec are word for word.

export const SURVEY_MESSAGES = {
  // Messages (docs/guide/surveys.md)
  loadListFailed: "Failed to load surveys.",
  deleteFailed: "Failed to delete survey.",
  loadFailed: "Failed to load survey.",
  saveFailed: "Failed to save survey.",
  edited: "Survey Edited successfully!",
  created: "Survey created successfully!",
  createFailed: "Failed to save survey, please try again",
  fetchResponsesFailed: "Failed to fetch survey responses",
  loadSurveysListFailed: "Failed to load surveys list.",
  exportPageFailed: "Failed to export this page.",
  noResponses: "No responses found.",
  // Rules and confirmations (docs/guide/surveys.md)
  atLeastOneQuestion: "Please add at least one question before saving the survey.",
  datesOrder: "Start date cannot be later than End date!",
  selectSurvey: "Please select a survey",
  noCsvRows: "No surveys to export.",
  noPageRows: "No data found on this page to export.",
  deleteQuestion: "Are you sure you want to delete this survey?",
  // Ours (the spec has none for these)
  deleted: "Survey deleted.",
  notFound: "Survey not found.",
  titleRequired: "Title field is required.",
  startRequired: "Start date is required.",
  endRequired: "End date is required.",
  dateFormat: "Use a date like 2026-11-25.",
  questionRequired: "Question text is required.",
  typeInvalid: "Choose a question type: text, multiple, checkbox, dropdown or rating.",
  optionsRequired: "Give at least two options, separated by commas.",
  optionTooLong: "An option can be at most 200 characters.",
  tooManyOptions: "A question can have at most 30 options.",
  tooManyQuestions: "A survey can have at most 50 questions.",
  foreignVenue: "Choose networks of this organization.",
} as const;

/** Question types (docs/guide/surveys.md#create-survey): the stored text, multiple, checkbox and dropdown, and the create form's rating. */
export const QUESTION_TYPES = ["text", "multiple", "checkbox", "dropdown", "rating"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  text: "Text",
  multiple: "Multiple choice (one answer)",
  checkbox: "Checkboxes (several answers)",
  dropdown: "Dropdown (one answer)",
  rating: "Rating (1 to 5)",
};
/** Types whose answers come from the question's options. */
export const OPTION_TYPES: readonly QuestionType[] = ["multiple", "checkbox", "dropdown"];
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const MAX_QUESTIONS = 50;
export const MAX_OPTIONS = 30;
export const MAX_TEXT_ANSWER = 1000;

/** The survey list offers page sizes up to 100 (docs/guide/surveys.md#survey-list). */
export const SURVEY_PAGE_SIZES = [5, 10, 25, 50, 100] as const;
/** Survey responses, 20 per page (docs/guide/surveys.md#survey-report). */
export const RESPONSES_PER_PAGE = 20;
/** The list's search box waits this long after typing (docs/guide/surveys.md#survey-list). */
export const SEARCH_DEBOUNCE_MS = 500;

export type SurveyStatus = "Upcoming" | "Active" | "Expired";

/**
 * A survey's status (docs/guide/surveys.md#survey-list): before start_date Upcoming; after end_date Expired;
 * otherwise Active (UTC days, both inclusive).
 */
export function surveyStatus(survey: { start_date: string; end_date: string }, today: string): SurveyStatus {
  if (today < survey.start_date) return "Upcoming";
  if (today > survey.end_date) return "Expired";
  return "Active";
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const isDay = (v: string) =>
  DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

const day = (required: string) =>
  z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    // An API client may send a full timestamp: its day counts.
    .transform((v) => (/^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v))
    .refine(isDay, SURVEY_MESSAGES.dateFormat);

/**
 * On edit the options text is parsed as JSON or else split on commas and trimmed. The
 * form types them comma separated; the API may send a JSON array (turned into its JSON text).
 */
export function parseOptions(text: string | null | undefined): string[] {
  const raw = (text ?? "").trim();
  if (!raw) return [];
  let items: unknown = null;
  if (raw.startsWith("[")) {
    try {
      items = JSON.parse(raw);
    } catch {
      items = null;
    }
  }
  const list = Array.isArray(items) ? items.map((x) => (typeof x === "string" || typeof x === "number" ? String(x) : "")) : raw.split(",");
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of list) {
    const option = item.trim();
    if (option && !seen.has(option.toLowerCase())) {
      seen.add(option.toLowerCase());
      out.push(option);
    }
  }
  return out;
}

/** Options as the form shows them. */
export const optionsText = (options: readonly string[]) => options.join(", ");

const idField = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1)
    .optional(),
);

const questionSchema = z
  .object({
    /** The question's id when editing an existing one (its answers stay tied to it). */
    id: idField,
    question_text: requiredText(SURVEY_MESSAGES.questionRequired, 500),
    question_type: z.enum(QUESTION_TYPES, { errorMap: () => ({ message: SURVEY_MESSAGES.typeInvalid }) }),
    options: z.string().max(10_000, SURVEY_MESSAGES.tooManyOptions).optional(),
  })
  .transform((q, ctx) => {
    // Only the option types keep options; the others have none (docs/guide/surveys.md#create-survey).
    if (!OPTION_TYPES.includes(q.question_type))
      return { id: q.id, question_text: q.question_text, question_type: q.question_type, options: [] as string[] };
    const options = parseOptions(q.options);
    if (options.length < 2) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["options"], message: SURVEY_MESSAGES.optionsRequired });
    if (options.length > MAX_OPTIONS)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["options"], message: SURVEY_MESSAGES.tooManyOptions });
    if (options.some((o) => o.length > 200))
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["options"], message: SURVEY_MESSAGES.optionTooLong });
    return { id: q.id, question_text: q.question_text, question_type: q.question_type, options };
  });

/** A multi-select posts one value as a string and none as nothing: always an array. */
const venueIds = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
  z
    .array(
      z.coerce
        .number()
        .int()
        .positive()
        .max(2 ** 31 - 1),
    )
    .max(1000),
);

/**
 * The survey form (create and edit) and the body of POST/PUT /api/v1/survey: title, description,
 * start_date, end_date, venues (networks it runs on; none = all), questions[{id?, question_text,
 * question_type, options}]. Questions are named questions[0].question_text … so conform's list
 * intents add and remove them without JavaScript.
 */
export const surveySchema = z
  .object({
    title: requiredText(SURVEY_MESSAGES.titleRequired, 200),
    description: optionalText(1000),
    start_date: day(SURVEY_MESSAGES.startRequired),
    end_date: day(SURVEY_MESSAGES.endRequired),
    venues: venueIds,
    questions: z.array(questionSchema).max(MAX_QUESTIONS, SURVEY_MESSAGES.tooManyQuestions).default([]),
  })
  .superRefine((survey, ctx) => {
    if (survey.start_date > survey.end_date)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["start_date"], message: SURVEY_MESSAGES.datesOrder });
    if (survey.questions.length === 0)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["questions"], message: SURVEY_MESSAGES.atLeastOneQuestion });
  })
  .transform((s) => ({ ...s, venues: [...new Set(s.venues)] }));
export type SurveyInput = z.output<typeof surveySchema>;

/** A new question's values (the Add question button). */
export const NEW_QUESTION = { question_text: "", question_type: "text", options: "" } as const;

/**
 * The report's query (the page's URL) and POST /api/v1/survey/responses: survey_id (required: 'Please
 * select a survey'), page, per_page (20 unless asked; at most 100), start_date/end_date (YYYY-MM-DD;
 * none: every answer).
 */
export const responsesQuerySchema = z
  .object({
    survey_id: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce
        .number({ required_error: SURVEY_MESSAGES.selectSurvey, invalid_type_error: SURVEY_MESSAGES.selectSurvey })
        .int(SURVEY_MESSAGES.selectSurvey)
        .positive(SURVEY_MESSAGES.selectSurvey)
        .max(2 ** 31 - 1, SURVEY_MESSAGES.selectSurvey),
    ),
    page: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1)),
    per_page: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(1).max(100).catch(RESPONSES_PER_PAGE).default(RESPONSES_PER_PAGE),
    ),
    start_date: z.preprocess((v) => (v === "" ? undefined : v), day(SURVEY_MESSAGES.dateFormat).optional()),
    end_date: z.preprocess((v) => (v === "" ? undefined : v), day(SURVEY_MESSAGES.dateFormat).optional()),
  })
  .superRefine((q, ctx) => {
    if (q.start_date && q.end_date && q.start_date > q.end_date)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["start_date"], message: SURVEY_MESSAGES.datesOrder });
  });
export type ResponsesQuery = z.output<typeof responsesQuerySchema>;

/**
 * The report's page list (docs/guide/surveys.md#survey-report): all pages if 7 or fewer, otherwise first, last and two
 * either side of the current one, with gaps (null).
 */
export function responsesPageWindow(current: number, last: number): (number | null)[] {
  if (last <= 7) return Array.from({ length: last }, (_, i) => i + 1);
  const pages: (number | null)[] = [];
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - current) <= 2) pages.push(p);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

/** The XLSX of a report page (docs/guide/surveys.md#survey-report: "a spreadsheet named by page with a sheet called Survey Responses"). */
export const XLSX_SHEET = "Survey Responses";
export const xlsxFileName = (page: number) => `survey-responses-page-${page}.xlsx`;
export const CSV_FILE = "surveys.csv";
/** Columns of the report, the CSV and the XLSX (docs/guide/surveys.md#survey-report). */
export const RESPONSE_COLUMNS = ["Question", "Response", "First Name", "Last Name", "Email", "Phone Number"] as const;
