// The survey service's REST calls (docs/guide/api.md#survey-service; routes api.v1.survey*.ts): the
// organisation from X-Organization-Id (or organization_id in the query), bearer tokens only, and
// bodies read into the FormData the pages' conform/zod schemas read. A survey body nests questions,
// which the account API's flat reader does not take: JSON questions[{question_text, question_type,
// options}] become questions[0].question_text …, and an options array its JSON text (parseOptions
// reads either).
import type { z, ZodTypeAny } from "zod";
import { hasNul } from "~/lib/nul";
import type { Permission } from "~/lib/permissions";
import { API_MESSAGES, apiError, apiValidationFailed, firstMessages, parseApiForm, requireApiOrg } from "../api.server";
import type { OrgContext } from "../guard.server";

const MAX_BODY = 256 * 1024;

export function requireSurveyApiOrg(request: Request, ...anyOf: Permission[]): Promise<OrgContext> {
  const raw = new URL(request.url).searchParams.get("organization_id");
  return requireApiOrg(request, raw && raw.trim() !== "" ? raw : null, "organization_id", ...anyOf);
}

function scalar(value: unknown): string | null | false {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : false;
  if (typeof value === "boolean") return String(value);
  return false;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** A JSON survey body as the form's FormData, with the fields whose values had the wrong shape. */
export function surveyFormData(body: unknown): { form: FormData; typeErrors: Record<string, string[]> } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw apiError(400, API_MESSAGES.notAnObject);
  if (hasNul(body)) throw apiError(400, "The request contains a character that is not allowed.");
  const form = new FormData();
  const typeErrors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (!NAME.test(key)) continue;
    if (key === "questions") {
      if (!Array.isArray(value)) {
        typeErrors.questions = ["questions must be a list of {question_text, question_type, options}."];
        continue;
      }
      value.slice(0, 200).forEach((q, i) => {
        if (typeof q !== "object" || q === null || Array.isArray(q)) {
          typeErrors[`questions[${i}]`] = ["A question must be an object {question_text, question_type, options}."];
          return;
        }
        for (const [field, item] of Object.entries(q as Record<string, unknown>)) {
          if (!NAME.test(field)) continue;
          const text =
            field === "options" && Array.isArray(item)
              ? JSON.stringify(item.map((o) => (typeof o === "string" || typeof o === "number" ? String(o) : "")))
              : scalar(item);
          if (text === false) typeErrors[`questions[${i}].${field}`] = [API_MESSAGES.wrongType];
          else if (text !== null) form.append(`questions[${i}].${field}`, text);
        }
      });
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = scalar(item);
      if (text === false) typeErrors[key] = [API_MESSAGES.wrongType];
      else if (text !== null) form.append(key, text);
    }
  }
  return { form, typeErrors };
}

/** The body (JSON, or form data named as the page's form) checked with the page's schema; 422 with the first message per field. */
export async function readSurveyInput<S extends ZodTypeAny>(request: Request, schema: S): Promise<z.output<S>> {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > MAX_BODY) throw apiError(413, "The request body is too large (at most 256 KB).");
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  let form: FormData;
  let typeErrors: Record<string, string[]> = {};
  if (type.includes("json")) {
    const text = await request.text();
    if (text.length > MAX_BODY) throw apiError(413, "The request body is too large (at most 256 KB).");
    let parsed: unknown;
    try {
      parsed = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      throw apiError(400, API_MESSAGES.malformedBody);
    }
    ({ form, typeErrors } = surveyFormData(parsed));
  } else if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
    try {
      form = await request.formData();
    } catch {
      throw apiError(400, API_MESSAGES.malformedBody);
    }
    for (const [key, value] of form) {
      if (typeof value !== "string") typeErrors[key] = [API_MESSAGES.wrongType];
      else if (value.includes("\0") || key.includes("\0")) throw apiError(400, "The request contains a character that is not allowed.");
    }
  } else if (!request.body) {
    form = new FormData();
  } else {
    throw apiError(415, API_MESSAGES.unsupportedType);
  }
  const submission = parseApiForm(form, { schema });
  const errors = { ...(submission.status === "success" ? {} : firstMessages(submission.error)), ...typeErrors };
  if (submission.status !== "success" || Object.keys(errors).length > 0) {
    if (Object.keys(errors).length === 0) errors[""] = [API_MESSAGES.malformedBody];
    throw apiValidationFailed(errors);
  }
  return submission.value as z.output<S>;
}
