import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { inviteAdministratorSchema } from "~/lib/schemas/access-control";
import { INVITATION_STATUSES } from "~/lib/schemas/organizations";
import { listAdministrators } from "~/services/access-control.server";
import {
  API_MESSAGES,
  apiData,
  apiError,
  apiValidationFailed,
  dispatch,
  parseApiBody,
  readApiBody,
  readApiInput,
  requireApiOrg,
  requireApiUser,
  withNotFoundMessage,
  type ApiMethods,
} from "~/services/api.server";
import { mailGoesOut, publicOrigin } from "~/services/email.server";
import { inviteAdministrator, requireInvitePermission } from "~/services/invitations.server";
import { respondToInvitation } from "~/services/organizations.server";

// GET  /account/api/v1/administrators?organization_id= (or X-Organization-Id) → { data: [administrator] };
//      needs view_settings, like the administrators page.
// POST /account/api/v1/administrators — email, role_id, organization (or X-Organization-Id):
//      invites, like the invite page (create_administrators and im_admin) → 201 { data: { message, organization } }.
//      A confirmation_link from the client is ignored: the mail carries our own /invitations/{token}
//      link, so an invitation token never travels to a foreign host.
// PUT  /account/api/v1/administrators — status (Accepted, Declined or Delete), organization_id:
//      the user's answer to a membership, like the organisations list → { data: { message } }.

const respondSchema = z.object({
  status: z.enum(INVITATION_STATUSES, { errorMap: () => ({ message: "Status must be Accepted, Declined or Delete." }) }),
  organization_id: z
    .string({ required_error: API_MESSAGES.organizationRequired, invalid_type_error: API_MESSAGES.organizationRequired })
    .trim()
    .min(1, API_MESSAGES.organizationRequired)
    .max(20, API_MESSAGES.organizationNotFound),
});

const methods: ApiMethods = {
  async GET({ request }) {
    const orgId = new URL(request.url).searchParams.get("organization_id");
    const ctx = await requireApiOrg(request, orgId, "organization_id", "view_settings");
    const administrators = await listAdministrators(ctx);
    return apiData(
      administrators.map((a) => ({
        id: a.id,
        role_id: a.roleId,
        role_name: a.roleName,
        status: a.status,
        invited_email_address: a.invitedEmail,
        im_admin: a.isOwner,
        // No user yet: 'Pending registration'.
        user: a.userId === null ? null : { id: a.userId, name: a.name, email: a.email, phone_number: a.phoneNumber },
      })),
    );
  },

  async POST({ request }) {
    await requireApiUser(request);
    const body = await readApiBody(request);
    if (body.typeErrors.organization) return apiValidationFailed({ organization: body.typeErrors.organization });
    const organization = body.form.get("organization");
    const ctx = await requireApiOrg(request, typeof organization === "string" ? organization : null, "organization");
    requireInvitePermission(ctx);
    const input = parseApiBody(body, inviteAdministratorSchema);
    const result = await withNotFoundMessage(inviteAdministrator(ctx, input, publicOrigin()), "Role not found.");
    if (!result.ok) {
      if (result.fieldErrors && Object.keys(result.fieldErrors).length) return apiValidationFailed(result.fieldErrors);
      return apiError(502, result.formErrors?.[0] ?? "The invitation could not be sent.");
    }
    // The message keeps its contract; mail_delivery says honestly whether it went out by SMTP or stays in the outbox folder.
    return apiData(
      {
        message: `Invitation sent to ${input.email}.`,
        organization: { id: ctx.org.id, name: ctx.org.name },
        mail_delivery: mailGoesOut() ? "smtp" : "outbox",
      },
      201,
    );
  },

  async PUT({ request }) {
    const user = await requireApiUser(request);
    const { status, organization_id } = await readApiInput(request, respondSchema);
    const message = await withNotFoundMessage(respondToInvitation(user.id, organization_id, status), API_MESSAGES.organizationNotFound);
    return apiData({ message });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
