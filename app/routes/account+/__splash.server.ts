// Splash pages, their options and display rules as the account API answers them
// (docs/guide/splash-pages.md#splash-page-details, #presentation,
// docs/guide/api.md#splash-pages), shared by the splash_pages routes. Times are ISO
// strings, as in the venues API.
import type { Permission } from "~/lib/permissions";
import { apiValidationFailed, isoTime, readApiBody, requireApiOrg, requireApiUser, type ApiBody } from "~/services/api.server";
import type { OrgContext } from "~/services/guard.server";
import type { SplashConfig, SplashPageSummary } from "~/services/splash/pages.server";
import type { DisplaySetting } from "~/services/splash/rules.server";

/**
 * PUT splash_pages/{id} carries a page's code: a builder project (up to 1.5 MB) with its HTML and
 * CSS. server/boundary.mjs lets bodies of that path through up to the same size (API_CODE_ROUTES).
 */
export const SPLASH_CODE_MAX_BODY_BYTES = 2 * 1024 * 1024;

export const SPLASH_NOT_FOUND = "Splash page not found.";

/** An option with the value guests see: the operator's, else the initial one. */
export function configJson(c: SplashConfig) {
  return {
    id: c.id,
    title: c.title,
    name: c.name,
    default_value: c.default_value,
    current_value: c.custom_value ?? c.default_value,
    custom_value: c.custom_value,
  };
}

type PageLike = SplashPageSummary & {
  html?: string | null;
  css?: string | null;
  custom_scripts?: string | null;
  project_data?: string | null;
  configs?: SplashConfig[];
};

/** A page of the organisation: the list's summary, or (from getPage) with its code and options. */
export function pageJson(organizationId: number, p: PageLike) {
  return {
    id: p.id,
    organization_id: organizationId,
    name: p.name,
    description: p.description,
    css_template: p.css_template,
    type: p.type,
    published: p.published,
    has_unpublished_changes: p.has_unpublished_changes,
    published_at: isoTime(p.published_at),
    page_url: p.page_url,
    template: false,
    created_at: isoTime(p.created_at),
    updated_at: isoTime(p.updated_at),
    ...(p.configs
      ? {
          html: p.html ?? "",
          css: p.css ?? "",
          custom_scripts: p.custom_scripts ?? "",
          project_data: p.project_data ?? null,
          configs: p.configs.map(configJson),
        }
      : {}),
  };
}

export function settingJson(s: DisplaySetting) {
  return {
    id: s.id,
    splash_page_id: s.splash_page_id,
    access_points: s.access_points,
    start_date: s.start_date,
    end_date: s.end_date,
    factor: s.factor,
    factor_count: s.factor_count,
    factor_type: s.factor_type,
    rule: s.rule,
    created_at: isoTime(s.created_at),
  };
}

/**
 * The body of a write (at most `maxBytes`) and the organisation it names: `organization_id` in the
 * body, else X-Organization-Id (422 without either, 404 for one the user is not a member of).
 * readScopedBody of the venues routes, with a size of its own.
 */
export async function readSplashBody(
  request: Request,
  maxBytes?: number,
  ...anyOf: Permission[]
): Promise<{ ctx: OrgContext; body: ApiBody }> {
  await requireApiUser(request);
  const body = await readApiBody(request, maxBytes);
  if (body.typeErrors.organization_id) throw apiValidationFailed({ organization_id: body.typeErrors.organization_id });
  const raw = body.form.get("organization_id");
  const ctx = await requireApiOrg(request, typeof raw === "string" && raw.trim() !== "" ? raw : null, "organization_id", ...anyOf);
  return { ctx, body };
}
