import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parseListParams, PAGE_SIZES } from "~/lib/pagination";
import { organizationSchema } from "~/lib/schemas/organizations";
import { apiData, dispatch, parseApiQuery, readApiInput, requireApiOrg, requireApiUser, type ApiMethods } from "~/services/api.server";
import { createOrganization, listMemberships, requireCanCreateOrganization } from "~/services/organizations.server";
import { organizationDetailsJson, organizationJson } from "./__organizations.server";

// GET  /account/api/v1/organizations[?admin_status=Accepted|Declined|Pending&page=&per_page=]
//      → { data: { organizations: […], meta: { page, per_page, total } } }, newest first.
// POST /account/api/v1/organizations — name, address, more_info, phone_number, email (the
//      organisation form's schema) → 201 { data: { message, organization } }. Same rule as the
//      create page: a first organisation, or create_organizations somewhere.

const DEFAULT_PER_PAGE = 100;

const listQuery = z.object({
  admin_status: z
    .enum(["Accepted", "Declined", "Pending"], { errorMap: () => ({ message: "Admin status must be Accepted, Declined or Pending." }) })
    .optional(),
});

const methods: ApiMethods = {
  async GET({ request }) {
    const user = await requireApiUser(request);
    const { admin_status } = parseApiQuery(request, listQuery);
    const page = parseListParams(new URL(request.url).searchParams, PAGE_SIZES, DEFAULT_PER_PAGE);
    const { rows, total } = await listMemberships(user.id, page, { status: admin_status });
    return apiData({
      organizations: rows.map((r) => organizationJson(r, { status: r.status, isOwner: r.is_owner })),
      meta: { page: page.page, per_page: page.pageSize, total },
    });
  },

  async POST({ request }) {
    const user = await requireApiUser(request);
    await requireCanCreateOrganization(user.id);
    const input = await readApiInput(request, organizationSchema);
    const org = await createOrganization(user.id, input);
    const ctx = await requireApiOrg(request, String(org.id), "id");
    return apiData({ message: "Organization created.", organization: await organizationDetailsJson(ctx) }, 201);
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
