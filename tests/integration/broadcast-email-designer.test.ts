// The broadcast e-mail's visual designer through its loader, action
// and image upload route, on SQLite and PostgreSQL: the designer's save (inlined HTML, its project as
// email_design, the text as typed), a bad project refused, the hand-written path still clearing the
// project, and the asset manager's uploads: broadcast editors only, other organisations' broadcasts
// 404, only real images, an absolute URL answered (mail programs fetch it).
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import type { Permission } from "~/lib/permissions";
import { BROADCAST_MESSAGES } from "~/lib/schemas/broadcasts";
import * as assets from "~/routes/$orgId+/_marketing+/broadcast+/$id.assets";
import * as email from "~/routes/$orgId+/_marketing+/broadcast+/$id.email";
import * as create from "~/routes/$orgId+/_marketing+/broadcasts+/create";
import { BROADCAST_RESULT_MESSAGES } from "~/services/marketing/broadcasts.server";
import { makeMember, makeOrg, makeRequest, makeUser, run, sessionCookie } from "../fixtures";
import { multipartRequest, PNG, useTemporaryAssetStore } from "../fixtures/layout";
import { toastOf } from "../fixtures/records";

type Json = Record<string, any>;
type Fn = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<unknown>;

async function world() {
  const owner = await makeUser();
  const { org } = await makeOrg(`Designer Cafe ${Math.random()}`, owner);
  return { orgId: org.id, owner };
}

async function call(fn: Fn, userId: number, orgId: number, path: string, params: Record<string, string>, form?: Record<string, string>) {
  const request = makeRequest(`/${orgId}/${path}`, { form, cookie: await sessionCookie(userId) });
  return run(() => fn({ request, params: { orgId: String(orgId), ...params }, context: {} }));
}

async function created(userId: number, orgId: number) {
  const res = await call(create.action, userId, orgId, "broadcasts/create", {}, { title: "Weekend offer", description: "" });
  return Number(/\/broadcast\/(\d+)\/email$/.exec(res.headers.get("Location")!)![1]);
}

async function upload(userId: number, orgId: number, id: number | string, file: { bytes: Uint8Array; name: string; type?: string }) {
  const request = multipartRequest(`/${orgId}/broadcast/${id}/assets`, await sessionCookie(userId), file);
  return run(() => assets.action({ request, params: { orgId: String(orgId), id: String(id) }, context: {} }));
}

const row = (id: number) =>
  db.selectFrom("broadcasts").select(["email_html", "email_text", "email_design"]).where("id", "=", id).executeTakeFirstOrThrow();
const member = async (orgId: number, permissions: Permission[]) => (await makeMember(orgId, "custom", permissions)).user.id;

describe("the designer's save", () => {
  it("stores the inlined HTML, the project and the text; a bad project is refused; hand-written HTML drops the project", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const params = { id: String(id) };
    const design = JSON.stringify({ pages: [{ component: { type: "wrapper" } }], styles: [] });
    const html = '<table style="width:100%"><tr><td style="color:#111">Karibu</td></tr></table>';

    const saved = await call(email.action, owner.id, orgId, `broadcast/${id}/email`, params, {
      intent: "designer",
      email_html: html,
      email_design: design,
      email_text: "",
    });
    expect(saved.status).toBe(302);
    expect(await toastOf(saved)).toMatchObject({ message: BROADCAST_RESULT_MESSAGES.emailSaved });
    expect(await row(id)).toEqual({ email_html: html, email_text: null, email_design: design });

    const page: Json = await (await call(email.loader, owner.id, orgId, `broadcast/${id}/email`, params)).json();
    expect(page).toMatchObject({
      design,
      uploadUrl: `/${orgId}/broadcast/${id}/assets`,
      broadcast: { has_design: true },
      values: { email_html: html, email_text: "" },
    });

    for (const bad of ["not json", '"a string"', "a\u0000b"]) {
      const res = await call(email.action, owner.id, orgId, `broadcast/${id}/email`, params, {
        intent: "designer",
        email_html: "<p>x</p>",
        email_design: bad,
      });
      expect(res.status).toBe(400);
      const body: Json = await res.json();
      expect(body.error[""]).toEqual([bad.includes("\u0000") ? BROADCAST_MESSAGES.nul : BROADCAST_MESSAGES.designInvalid]);
    }
    expect((await row(id)).email_design).toBe(design);

    // The textarea path ignores a design field sent along and clears the stored project.
    const byHand = await call(email.action, owner.id, orgId, `broadcast/${id}/email`, params, {
      email_html: "<p>By hand</p>",
      email_text: "By hand",
      email_design: design,
    });
    expect(byHand.status).toBe(302);
    expect(await row(id)).toEqual({ email_html: "<p>By hand</p>", email_text: "By hand", email_design: null });
  });

  it("needs the broadcast edit permissions and the organisation's own broadcast", async () => {
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);
    const viewer = await member(orgId, ["view_broadcasts"]);
    const form = { intent: "designer", email_html: "<p>x</p>", email_design: "{}" };
    expect((await call(email.action, viewer, orgId, `broadcast/${id}/email`, { id: String(id) }, form)).status).toBe(403);
    const other = await world();
    expect((await call(email.action, other.owner.id, other.orgId, `broadcast/${id}/email`, { id: String(id) }, form)).status).toBe(404);
    expect(await row(id)).toEqual({ email_html: null, email_text: null, email_design: null });
  });
});

describe("the designer's image upload", () => {
  let store: ReturnType<typeof useTemporaryAssetStore> | null = null;
  afterEach(() => {
    store?.cleanup();
    store = null;
  });

  it("takes an image from a broadcast editor and answers its absolute URL; refuses others", async () => {
    store = useTemporaryAssetStore();
    const { orgId, owner } = await world();
    const id = await created(owner.id, orgId);

    // A broadcast editor without any splash page permission may upload.
    const editor = await member(orgId, ["create_broadcasts"]);
    const ok = await upload(editor, orgId, id, { bytes: PNG, name: "chai.png", type: "image/png" });
    expect(ok.status).toBe(201);
    const body: Json = await ok.json();
    expect(body.data.file.name).toBe("chai.png");
    expect(body.data.file.url).toMatch(new RegExp(`^http://localhost/assets/splash/${orgId}/chai-[0-9a-f]+\\.png$`));
    expect(store.files()).toHaveLength(1);
    // The loader offers it to owners (who may see the organisation's images).
    const page: Json = await (await call(email.loader, owner.id, orgId, `broadcast/${id}/email`, { id: String(id) })).json();
    expect(page.assets).toEqual([{ name: "chai.png", url: body.data.file.url }]);

    const text = await upload(owner.id, orgId, id, { bytes: Buffer.from("just some text"), name: "fake.png", type: "image/png" });
    expect(text.status).toBe(422);
    expect(((await text.json()) as Json).message).toContain("must be a PNG, JPEG, WebP or GIF image");

    const missing = await run(async () =>
      assets.action({
        request: multipartRequest(`/${orgId}/broadcast/${id}/assets`, await sessionCookie(owner.id), null),
        params: { orgId: String(orgId), id: String(id) },
        context: {},
      }),
    );
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as Json).message).toEqual(expect.any(String));

    const viewer = await member(orgId, ["view_broadcasts", "view_splash_pages"]);
    expect((await upload(viewer, orgId, id, { bytes: PNG, name: "a.png", type: "image/png" })).status).toBe(403);

    const other = await world();
    expect((await upload(other.owner.id, other.orgId, id, { bytes: PNG, name: "a.png", type: "image/png" })).status).toBe(404);
    for (const raw of ["0", "abc", "99999999999"])
      expect((await upload(owner.id, orgId, raw, { bytes: PNG, name: "a.png", type: "image/png" })).status).toBe(404);
    expect(store.files()).toHaveLength(1);
  });
});
