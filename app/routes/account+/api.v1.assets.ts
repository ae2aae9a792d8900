import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { UPLOAD_MESSAGES } from "~/lib/image-type";
import { apiData, apiError, apiValidationFailed, dispatch, requireApiOrg, requireApiUser, withNotFoundMessage, type ApiMethods } from "~/services/api.server";
import { publicOrigin } from "~/services/email.server";
import type { OrgContext } from "~/services/guard.server";
import { listFloorPlans, saveLayoutImage } from "~/services/layout.server";
import { readImageUpload } from "~/services/storage.server";
import { requireQueryOrg } from "./__venues.server";

// POST /account/api/v1/assets — multipart: file, name, organization_id (or X-Organization-Id).
//      Floor plans only, named {venueId}_floor_plan (spec 2 §7): the image (PNG, JPEG or WebP by its
//      content, at most 10 MB) becomes the network's layout plan (edit_network_layout)
//      → 201 { data: { file: { name, url } } }. Too large: 413; wrong type or no file: 422.
// GET  /account/api/v1/assets?organization_id= (view_networks) → { data: { files: [{ name, path }] } }.

const FLOOR_PLAN = /^(\d+)_floor_plan$/;
const NAME_MESSAGE = "Name the file {venueId}_floor_plan: only floor plans of networks can be uploaded.";

const methods: ApiMethods = {
  async GET({ request }) {
    const ctx = await requireQueryOrg(request, "view_networks");
    return apiData({ files: await listFloorPlans(ctx) });
  },

  async POST({ request }) {
    await requireApiUser(request);
    // With the header, permission is settled before the upload is read.
    const header = request.headers.get("X-Organization-Id");
    let ctx: OrgContext | null = header ? await requireApiOrg(request, header, "organization_id", "edit_network_layout") : null;
    const upload = await readImageUpload(request, "file");
    if (!ctx) {
      const raw = upload.fields.get("organization_id");
      ctx = await requireApiOrg(request, typeof raw === "string" && raw.trim() ? raw : null, "organization_id", "edit_network_layout");
    }
    const name = upload.fields.get("name");
    const venueId = typeof name === "string" ? parseId(name.match(FLOOR_PLAN)?.[1]) : null;
    if (venueId === null) return apiValidationFailed({ name: [NAME_MESSAGE] });
    if (!upload.ok) {
      if (upload.message === UPLOAD_MESSAGES.tooLarge) return apiError(413, upload.message);
      return apiValidationFailed({ file: [upload.message] });
    }
    const saved = await withNotFoundMessage(saveLayoutImage(ctx, venueId, upload.image), "Network not found.");
    return apiData({ file: { name: `${venueId}_floor_plan`, url: `${publicOrigin()}${saved.url}` } }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
