import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ZodTypeAny, z } from "zod";
import type { SplashPageType } from "~/db/schema";
import { parseId } from "~/lib/ids";
import { splashBuilderSchema, splashCodeSchema, splashPageSchema, splashTypeSchema, SPLASH_MESSAGES } from "~/lib/schemas/splash";
import { apiData, apiValidationFailed, dispatch, firstMessages, parseApiForm, type ApiBody, type ApiMethods } from "~/services/api.server";
import { forbidden } from "~/services/guard.server";
import { deletePage, getPage, saveBuilder, saveCode, setPageType, updatePageDetails } from "~/services/splash/pages.server";
import { pageJson, readSplashBody, SPLASH_CODE_MAX_BODY_BYTES } from "./__splash.server";
import { requireQueryOrg } from "./__venues.server";

// GET    /account/api/v1/splash_pages/{id} (view_splash_pages, create_splash_pages or edit_splash_pages)
//        → { data: { page } }: the summary (see splash_pages) with html, css, custom_scripts,
//        project_data (the builder's project, or null) and configs [{ id, title, name, default_value,
//        current_value (custom_value, else default_value), custom_value }].
// PUT    /account/api/v1/splash_pages/{id} (edit_splash_pages; 'Not allowed to edit splash page'),
//        JSON or form, at most 2 MB. What is saved follows the fields present, all validated first:
//          name, css_template, description → the details (name required; css_template and description
//            left out keep their values; send description "" to clear it);
//          type (1 builder, 2 code editor) → the set-up choice;
//          project_data (with html and css) → the builder's save;
//          html, css, custom_scripts → the code editor's saves (each one present is saved).
//        → { data: { message, page } } (the page as GET answers it); 422 { errors } listing every
//        field's message; a body with none of these fields is a 422 too.
// DELETE /account/api/v1/splash_pages/{id} (delete_splash_pages) → { data: { message, rules_removed,
//        networks_reset } }: the message says how many display rules went with the page and how many
//        networks (that had it as their page) went back to the built-in page.
// The organisation is organization_id (query or body) or X-Organization-Id; a page of another
// organisation, an unknown or a malformed id is a 404.

const DETAIL_FIELDS = ["name", "css_template", "description"] as const;
const CODE_FIELDS = ["html", "css", "custom_scripts"] as const;
const NOTHING_TO_SAVE =
  "Send the page's details (name, css_template, description), its type, or its code (html, css, custom_scripts, project_data).";

type Checked<S extends ZodTypeAny> = { ok: true; value: z.output<S> } | { ok: false; errors: Record<string, string[]> };

/** The named fields of the body, checked with a page's schema; `defaults` fill fields left out. */
function check<S extends ZodTypeAny>(
  body: ApiBody,
  schema: S,
  fields: readonly string[],
  defaults: Record<string, string> = {},
): Checked<S> {
  const form = new FormData();
  const typeErrors: Record<string, string[]> = {};
  for (const field of fields) {
    if (body.typeErrors[field]) typeErrors[field] = body.typeErrors[field];
    const values = body.form.getAll(field);
    if (values.length === 0 && field in defaults) form.append(field, defaults[field]);
    for (const value of values) form.append(field, value);
  }
  const submission = parseApiForm(form, { schema });
  const errors = { ...(submission.status === "success" ? {} : firstMessages(submission.error)), ...typeErrors };
  if (submission.status === "success" && Object.keys(errors).length === 0) return { ok: true, value: submission.value as z.output<S> };
  return { ok: false, errors };
}

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request);
    return apiData({ page: pageJson(ctx.org.id, await getPage(ctx, parseId(params.id))) });
  },

  async PUT({ request, params }) {
    const { ctx, body } = await readSplashBody(request, SPLASH_CODE_MAX_BODY_BYTES);
    // Every save here needs edit_splash_pages: refused before the page or the body is looked at.
    if (!ctx.permissions.has("edit_splash_pages")) forbidden(SPLASH_MESSAGES.notAllowedToEdit);
    const current = await getPage(ctx, parseId(params.id));

    const sent = (field: string) => body.form.has(field) || field in body.typeErrors;
    const wantsDetails = DETAIL_FIELDS.some(sent);
    const wantsType = sent("type");
    const wantsBuilder = sent("project_data");
    const codeFields = CODE_FIELDS.filter((f) => sent(f) && !(wantsBuilder && f !== "custom_scripts"));
    if (!wantsDetails && !wantsType && !wantsBuilder && codeFields.length === 0) return apiValidationFailed({ "": [NOTHING_TO_SAVE] });

    const details = wantsDetails
      ? check(body, splashPageSchema, DETAIL_FIELDS, { css_template: current.css_template, description: current.description ?? "" })
      : null;
    const type = wantsType ? check(body, splashTypeSchema, ["type"]) : null;
    const builder = wantsBuilder ? check(body, splashBuilderSchema, ["project_data", "html", "css"]) : null;
    const code = codeFields.length ? check(body, splashCodeSchema, codeFields) : null;
    const errors = Object.assign({}, ...[details, type, builder, code].map((c) => (c && !c.ok ? c.errors : {})));
    if (Object.keys(errors).length > 0) return apiValidationFailed(errors);

    if (details?.ok) await updatePageDetails(ctx, current.id, details.value);
    if (type?.ok) await setPageType(ctx, current.id, type.value.type as SplashPageType);
    if (builder?.ok) await saveBuilder(ctx, current.id, builder.value);
    if (code?.ok) {
      // Only the fields sent are saved; one sent empty clears that part (conform reads "" as left out).
      const sentCode = Object.fromEntries(codeFields.map((f) => [f, code.value[f] ?? ""]));
      await saveCode(ctx, current.id, sentCode);
    }
    const page = await getPage(ctx, current.id);
    return apiData({ message: `Splash page ${page.name} saved.`, page: pageJson(ctx.org.id, page) });
  },

  async DELETE({ request, params }) {
    const ctx = await requireQueryOrg(request);
    const deleted = await deletePage(ctx, parseId(params.id));
    const rules =
      deleted.rulesRemoved === 0
        ? ""
        : deleted.rulesRemoved === 1
          ? " Its display rule was removed."
          : ` Its ${deleted.rulesRemoved} display rules were removed.`;
    const networks =
      deleted.networksReset === 0
        ? ""
        : deleted.networksReset === 1
          ? " The network that used it shows the built-in page now."
          : ` The ${deleted.networksReset} networks that used it show the built-in page now.`;
    return apiData({
      message: `Splash page ${deleted.name} deleted.${rules}${networks}`,
      rules_removed: deleted.rulesRemoved,
      networks_reset: deleted.networksReset,
    });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
