// Shared by the splash page routes: the guard every one of them runs, and the refusals the spec
// wants shown as alerts (not the error page).
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { SPLASH_MESSAGES, splashCodeSchema } from "~/lib/schemas/splash";
import { requireOrg, type OrgContext } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { getPage, saveCode } from "~/services/splash/pages.server";
import { parseForm } from "~/services/forms.server";

/** Anyone who may see splash pages: view, create or edit (docs/guide/access-control.md#what-each-permission-shows). */
export function requireSplashViewer(request: Request, params: ActionFunctionArgs["params"]): Promise<OrgContext> {
  return requireOrg(request, params, "view_splash_pages", "create_splash_pages", "edit_splash_pages");
}

export const pageIdParam = (params: ActionFunctionArgs["params"]) => parseId(params.pageId);

/** The first message of a failed submission (conform's error record). */
export function firstMessage(error: Record<string, string[] | null> | null | undefined, fallback = "The form could not be read."): string {
  return Object.values(error ?? {}).flatMap((m) => m ?? [])[0] ?? fallback;
}

const CODE_LABELS = { html: "HTML", css: "Styles", custom_scripts: "Scripts" } as const;
export type CodeField = keyof typeof CODE_LABELS;

/** A code tab's data: the field's text and whether the viewer may change it. */
export async function codeTabData(request: Request, params: ActionFunctionArgs["params"], field: CodeField) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  return {
    orgId: ctx.org.id,
    page: { id: page.id, type: page.type, [field]: page[field] } as { id: number; type: number | null } & Record<CodeField, string>,
    canEdit: ctx.permissions.has("edit_splash_pages"),
  };
}

/**
 * Saves one code field (the HTML, Styles and Scripts tabs; the builder's no-JavaScript HTML form).
 * Refused without edit_splash_pages with the spec's sentence, as data (an alert), after the page's
 * own 404. `intent=autosave` (the editor losing focus, a fetcher) answers `{ ok, message }`; Save
 * (a form) redirects back with a toast.
 */
export async function saveCodeField(
  request: Request,
  params: ActionFunctionArgs["params"],
  field: CodeField,
  here: (orgId: number, pageId: number) => string,
  body?: FormData,
) {
  const ctx = await requireSplashViewer(request, params);
  const page = await getPage(ctx, pageIdParam(params));
  const form = body ?? (await request.formData());
  const intent = form.get("intent") ?? "save";
  if (intent !== "save" && intent !== "autosave") return json({ ok: false as const, message: "Unknown action." }, { status: 400 });
  if (!ctx.permissions.has("edit_splash_pages"))
    return json({ ok: false as const, message: SPLASH_MESSAGES.notAllowedToEdit }, { status: 403 });
  if (!form.has(field)) return json({ ok: false as const, message: "The form could not be read." }, { status: 400 });
  const submission = parseForm(form, { schema: splashCodeSchema });
  if (submission.status !== "success") return json({ ok: false as const, message: firstMessage(submission.error) }, { status: 422 });
  // conform reads an emptied field as missing: an empty text is saved as empty.
  await saveCode(ctx, page.id, { [field]: submission.value[field] ?? "" });
  const message = `${CODE_LABELS[field]} saved.`;
  if (intent === "autosave") return json({ ok: true as const, message });
  return redirectWithToast(request, here(ctx.org.id, page.id), message);
}
