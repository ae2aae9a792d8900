// Splash pages of an organisation (docs/guide/splash-pages.md). Every function takes
// the guard's context first, filters by ctx.org.id itself and checks its permission, so the pages
// and the REST API refuse alike; another organisation's page is a 404. Edits change the draft and
// add a draft revision; publishPage renders the draft once into the published snapshot guests get.
import type { Kysely } from "kysely";
import { db } from "~/db/db.server";
import type { DB } from "~/db/schema";
import type { CssTemplate, SplashPageType } from "~/db/schema";
import { containsText } from "~/db/sql.server";
import { SPLASH_MESSAGES, type SplashBuilderInput, type SplashCodeInput, type SplashPageInput } from "~/lib/schemas/splash";
import { randomToken } from "../crypto.server";
import { cleanProject } from "../editor-content.server";
import { publicOrigin } from "../email.server";
import { forbidden, notFound, requirePermission, type OrgContext } from "../guard.server";
import { placeholdersIn, renderFrame, type SplashFrame } from "./render.server";
import { findTemplate, TEMPLATES, type SplashTemplate } from "./templates";

export interface SplashConfig {
  id: number;
  name: string;
  title: string;
  default_value: string;
  /** The operator's value; null: the initial value applies. */
  custom_value: string | null;
}

const SUMMARY_COLUMNS = [
  "id",
  "name",
  "description",
  "css_template",
  "type",
  "draft_revision",
  "published_revision",
  "published_at",
  "public_key",
  "created_at",
  "updated_at",
] as const;

type SummaryRow = {
  id: number;
  name: string;
  description: string | null;
  css_template: CssTemplate;
  type: SplashPageType | null;
  draft_revision: number;
  published_revision: number | null;
  published_at: number | string | null;
  public_key: string;
  created_at: number | string;
  updated_at: number | string;
};

/** The public address of a page's published version ("View page"). */
export function pageUrl(publicKey: string): string {
  return `${publicOrigin()}/splash/pages/${publicKey}`;
}

function summary(row: SummaryRow) {
  const published = row.published_revision !== null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    css_template: row.css_template,
    type: row.type,
    published,
    /** The draft has changes guests do not see yet (Publish shows again). */
    has_unpublished_changes: !published || row.draft_revision !== row.published_revision,
    published_at: row.published_at === null ? null : Number(row.published_at),
    page_url: published ? pageUrl(row.public_key) : null,
    template: false,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}
export type SplashPageSummary = ReturnType<typeof summary>;

/** splash_pages?organization_id: the organisation's pages, newest first, optionally searched by name. */
export async function listPages(ctx: OrgContext, params: { offset: number; pageSize: number; search?: string | null }) {
  requirePermission(ctx, "view_splash_pages", "create_splash_pages", "edit_splash_pages");
  let query = db.selectFrom("splash_pages").where("organization_id", "=", ctx.org.id);
  if (params.search) query = query.where(containsText("name", params.search));
  const [rows, total] = await Promise.all([
    query
      .select([...SUMMARY_COLUMNS])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(params.pageSize)
      .offset(params.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(summary), total: Number(total.n) };
}

/**
 * The page with its code and options, or a 404. The builder's project is cleaned of anything that
 * could make script in the console's canvas as it is read too, for projects stored before that check.
 */
export async function getPage(ctx: OrgContext, pageId: number | null) {
  requirePermission(ctx, "view_splash_pages", "create_splash_pages", "edit_splash_pages");
  const row = await pageRow(ctx, pageId);
  return {
    ...summary(row),
    html: row.html,
    css: row.css,
    custom_scripts: row.custom_scripts,
    project_data: cleanProject(row.project_data),
    configs: await configsOf(row.id),
  };
}
export type SplashPage = Awaited<ReturnType<typeof getPage>>;

async function pageRow(ctx: OrgContext, pageId: number | null) {
  if (pageId === null) notFound("Splash page not found.");
  const row = await db
    .selectFrom("splash_pages")
    .select([...SUMMARY_COLUMNS, "html", "css", "custom_scripts", "project_data"])
    .where("id", "=", pageId)
    .where("organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  return row ?? notFound("Splash page not found.");
}

async function configsOf(pageId: number, on: Kysely<DB> = db): Promise<SplashConfig[]> {
  return on
    .selectFrom("splash_page_configs")
    .select(["id", "name", "title", "default_value", "custom_value"])
    .where("splash_page_id", "=", pageId)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

export async function createPage(ctx: OrgContext, input: SplashPageInput) {
  requirePermission(ctx, "create_splash_pages");
  const now = Date.now();
  const row = await db
    .insertInto("splash_pages")
    .values({
      organization_id: ctx.org.id,
      name: input.name,
      description: input.description,
      css_template: input.css_template,
      public_key: randomToken(18),
      created_by_user_id: ctx.user.id,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id) };
}

/** Saves a change of the draft: one more draft revision, so Publish shows again. */
async function saveDraft(ctx: OrgContext, pageId: number, changes: Record<string, unknown>, on: Kysely<DB> = db): Promise<void> {
  await on
    .updateTable("splash_pages")
    .set((eb) => ({ ...changes, draft_revision: eb("draft_revision", "+", 1), updated_at: Date.now() }))
    .where("id", "=", pageId)
    .where("organization_id", "=", ctx.org.id)
    .execute();
}

/** Details: name, styling template, description. */
export async function updatePageDetails(ctx: OrgContext, pageId: number | null, input: SplashPageInput) {
  requirePermission(ctx, "edit_splash_pages");
  const page = await pageRow(ctx, pageId);
  await saveDraft(ctx, page.id, { name: input.name, description: input.description, css_template: input.css_template });
}

/** The set-up screen: drag-and-drop builder (1) or code editor (2). */
export async function setPageType(ctx: OrgContext, pageId: number | null, type: SplashPageType) {
  requirePermission(ctx, "edit_splash_pages");
  const page = await pageRow(ctx, pageId);
  await saveDraft(ctx, page.id, { type });
}

/**
 * The HTML, Styles and Scripts tabs (and the API's PUT with html, css or custom_scripts). New HTML
 * drops the builder's project (the builder imports the HTML next time) and re-reads the options.
 */
export async function saveCode(ctx: OrgContext, pageId: number | null, input: SplashCodeInput) {
  if (!ctx.permissions.has("edit_splash_pages")) forbidden(SPLASH_MESSAGES.notAllowedToEdit);
  const page = await pageRow(ctx, pageId);
  const changes: Record<string, unknown> = {};
  if (input.html !== undefined) changes.html = input.html;
  if (input.css !== undefined) changes.css = input.css;
  if (input.custom_scripts !== undefined) changes.custom_scripts = input.custom_scripts;
  if (Object.keys(changes).length === 0) return;
  if (input.html !== undefined && input.html !== page.html) changes.project_data = null;
  await db.transaction().execute(async (trx) => {
    await saveDraft(ctx, page.id, changes, trx);
    if (input.html !== undefined) await syncConfigs(trx, page.id, input.html);
  });
}

/**
 * The builder's Save: its project (cleaned: it is opened in the console, by any editor of the page) and
 * the HTML and CSS it exports (the guest page's code, which only ever runs in the guests' sandbox).
 */
export async function saveBuilder(ctx: OrgContext, pageId: number | null, input: SplashBuilderInput) {
  if (!ctx.permissions.has("edit_splash_pages")) forbidden(SPLASH_MESSAGES.notAllowedToEdit);
  const page = await pageRow(ctx, pageId);
  const html = withoutBodyTag(input.html);
  await db.transaction().execute(async (trx) => {
    await saveDraft(ctx, page.id, { project_data: cleanProject(input.project_data), html, css: input.css }, trx);
    await syncConfigs(trx, page.id, html);
  });
}

/**
 * Options follow the page: a placeholder new to the HTML becomes an option (titled after its name,
 * initially empty), one no longer used is dropped; options still used keep their values.
 */
async function syncConfigs(
  on: Kysely<DB>,
  pageId: number,
  html: string,
  declared: readonly { name: string; title: string; defaultValue: string }[] = [],
): Promise<void> {
  const names = placeholdersIn(html);
  const existing = await configsOf(pageId, on);
  const unused = existing.filter((c) => !names.includes(c.name)).map((c) => c.id);
  if (unused.length) await on.deleteFrom("splash_page_configs").where("id", "in", unused).execute();
  const known = new Set(existing.map((c) => c.name));
  const fresh = names
    .map((name, position) => ({ name, position }))
    .filter(({ name }) => !known.has(name))
    .map(({ name, position }) => {
      const declaration = declared.find((d) => d.name === name);
      return {
        splash_page_id: pageId,
        name,
        title: declaration?.title ?? titleOf(name),
        default_value: declaration?.defaultValue ?? "",
        position,
      };
    });
  if (fresh.length) await on.insertInto("splash_page_configs").values(fresh).execute();
}

/** GrapesJS exports the page inside <body …>…</body>; the document around it is ours. */
function withoutBodyTag(html: string): string {
  const match = /^\s*<body\b[^>]*>([\s\S]*)<\/body>\s*$/i.exec(html);
  return match ? match[1]! : html;
}

const titleOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, " ");

/** PUT splash_pages/configs/{id}: an option's current value ("" returns to the initial value). Answers the option's page. */
export async function updateConfig(ctx: OrgContext, configId: number | null, customValue: string): Promise<{ pageId: number }> {
  if (!ctx.permissions.has("edit_splash_pages")) forbidden(SPLASH_MESSAGES.notAllowedToEditConfigs);
  if (configId === null) notFound("Page option not found.");
  const config = await db
    .selectFrom("splash_page_configs")
    .innerJoin("splash_pages", "splash_pages.id", "splash_page_configs.splash_page_id")
    .select(["splash_page_configs.id", "splash_page_configs.splash_page_id"])
    .where("splash_page_configs.id", "=", configId)
    .where("splash_pages.organization_id", "=", ctx.org.id)
    .executeTakeFirst();
  if (!config) notFound("Page option not found.");
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("splash_page_configs")
      .set({ custom_value: customValue === "" ? null : customValue })
      .where("id", "=", config.id)
      .execute();
    await saveDraft(ctx, config.splash_page_id, {}, trx);
  });
  return { pageId: config.splash_page_id };
}

/** splash_pages?template=true: the templates shipped with Mlango, shaped like pages. */
export function listTemplates() {
  return TEMPLATES.map(templateSummary);
}

function templateSummary(t: SplashTemplate) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    css_template: t.cssTemplate,
    type: 1 as const,
    template: true,
    html: t.html,
    css: t.css,
    custom_scripts: t.scripts,
    configs: t.configs.map((c) => ({ name: c.name, title: c.title, default_value: c.defaultValue })),
  };
}

/** splash_pages/copy/{id}?template=: the template's page, styling and options become the page's draft (builder). */
export async function copyTemplate(ctx: OrgContext, pageId: number | null, templateId: string) {
  if (!ctx.permissions.has("edit_splash_pages")) forbidden(SPLASH_MESSAGES.notAllowedToEdit);
  const page = await pageRow(ctx, pageId);
  const template = findTemplate(templateId);
  if (!template) notFound(SPLASH_MESSAGES.unknownTemplate);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("splash_page_configs").where("splash_page_id", "=", page.id).execute();
    await saveDraft(
      ctx,
      page.id,
      {
        type: 1,
        css_template: template.cssTemplate,
        html: template.html,
        css: template.css,
        custom_scripts: template.scripts,
        project_data: null,
      },
      trx,
    );
    await syncConfigs(trx, page.id, template.html, template.configs);
  });
}

/** The draft as guests would get it (previews in the console). */
export async function draftFrame(ctx: OrgContext, pageId: number | null): Promise<SplashFrame> {
  const page = await getPage(ctx, pageId);
  return renderFrame(page, valuesOf(page.configs));
}

const valuesOf = (configs: readonly SplashConfig[]) => new Map(configs.map((c) => [c.name, c.custom_value ?? c.default_value]));

/**
 * Publish: renders the draft once and keeps it as what guests get, until the next publish. A page
 * that is not set up cannot be published. Publishing the same draft again changes nothing.
 */
export async function publishPage(ctx: OrgContext, pageId: number | null) {
  requirePermission(ctx, "publish_splash_pages");
  const page = await pageRow(ctx, pageId);
  if (page.type === null) return { ok: false as const, message: SPLASH_MESSAGES.notSetUp };
  const configs = await configsOf(page.id);
  const frame = await renderFrame(page, valuesOf(configs));
  const now = Date.now();
  // Only the revision rendered is marked published: an edit saved meanwhile keeps Publish showing.
  await db
    .updateTable("splash_pages")
    .set({ published_revision: page.draft_revision, published_at: now, published_before: frame.before, published_after: frame.after })
    .where("id", "=", page.id)
    .where("organization_id", "=", ctx.org.id)
    .execute();
  // The page as it is now (for callers who may publish but not read the page's code).
  const publishedNow = summary({ ...page, published_revision: page.draft_revision, published_at: now });
  return { ok: true as const, message: SPLASH_MESSAGES.published, page: publishedNow };
}

/**
 * Deletes the page, its options and its display rules; networks that used it as their page go
 * back to the built-in page. Says how many of each, for the confirmation's answer.
 */
export async function deletePage(ctx: OrgContext, pageId: number | null) {
  requirePermission(ctx, "delete_splash_pages");
  const page = await pageRow(ctx, pageId);
  return db.transaction().execute(async (trx) => {
    const rules = await trx
      .selectFrom("splash_display_settings")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("splash_page_id", "=", page.id)
      .executeTakeFirstOrThrow();
    const networks = await trx
      .updateTable("venues")
      .set({ splash_page_id: null })
      .where("organization_id", "=", ctx.org.id)
      .where("splash_page_id", "=", page.id)
      .executeTakeFirst();
    await trx.deleteFrom("splash_pages").where("id", "=", page.id).where("organization_id", "=", ctx.org.id).execute();
    return { name: page.name, rulesRemoved: Number(rules.n), networksReset: Number(networks.numUpdatedRows) };
  });
}

/** What deleting the page takes with it, for the confirmation (display rules, networks using it). */
export async function pageUsage(ctx: OrgContext, pageId: number) {
  const [rules, networks] = await Promise.all([
    db
      .selectFrom("splash_display_settings")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("splash_page_id", "=", pageId)
      .where("organization_id", "=", ctx.org.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("venues")
      .select("name")
      .where("organization_id", "=", ctx.org.id)
      .where("splash_page_id", "=", pageId)
      .orderBy("name")
      .execute(),
  ]);
  return { rules: Number(rules.n), networks: networks.map((n) => n.name) };
}

/** The published pages of the organisation (a network's page select). */
export async function publishedPages(ctx: OrgContext) {
  return db
    .selectFrom("splash_pages")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.org.id)
    .where("published_revision", "is not", null)
    .orderBy("name")
    .execute();
}

/** The published document of a page by its public key ("View page"), or null. */
export async function publishedFrameByKey(publicKey: string): Promise<SplashFrame | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(publicKey)) return null;
  const row = await db
    .selectFrom("splash_pages")
    .select(["published_before", "published_after"])
    .where("public_key", "=", publicKey)
    .where("published_revision", "is not", null)
    .executeTakeFirst();
  return row?.published_before != null && row.published_after != null ? { before: row.published_before, after: row.published_after } : null;
}
