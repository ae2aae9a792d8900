import { z } from "zod";
import { ALL_PERMISSIONS, isPermission, type Permission } from "~/lib/permissions";

// The access-control forms (invite an administrator, change an administrator's role, roles and
// their permissions), shared by the pages and the API taking the same payload
// (docs/guide/access-control.md#invitations, docs/guide/api.md#account-service).

export const ACCESS_CONTROL_MESSAGES = {
  emailRequired: "Email field is required.",
  emailInvalid: "Please enter a valid email address.",
  roleRequired: "Role field is required.",
  roleNameRequired: "Role name field is required.",
  roleTypeInvalid: "Choose Full access, Read only or Custom as the role type.",
  tooLong: "This value is too long.",
} as const;

const MAX_RECORD_ID = 2_147_483_647; // the largest id an integer column holds on either database

/**
 * A record id from a form or URL: a positive integer the database can hold, else null.
 * Services answer 404 for null, so a malformed id (`abc`, `99999999999999999999`) is a 404
 * exactly like an unknown one.
 */
export function parseRecordId(raw: unknown): number | null {
  if (typeof raw !== "string" || !/^[1-9]\d{0,9}$/.test(raw.trim())) return null;
  const id = Number(raw.trim());
  return id <= MAX_RECORD_ID ? id : null;
}

/** A required text field: conform turns an empty field into undefined, so the message goes on both. */
function requiredText(message: string, max: number) {
  return z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .min(1, message)
    .max(max, ACCESS_CONTROL_MESSAGES.tooLong);
}

/** A hidden id field: null when missing or malformed (a 404 in the service). */
const recordId = z
  .string()
  .optional()
  .transform((v) => parseRecordId(v));

/** A chosen role: the spec's message when none is chosen; a malformed id is null (404). */
const chosenRole = requiredText(ACCESS_CONTROL_MESSAGES.roleRequired, 20).transform((v) => parseRecordId(v));

export const inviteAdministratorSchema = z.object({
  email: requiredText(ACCESS_CONTROL_MESSAGES.emailRequired, 254)
    .email(ACCESS_CONTROL_MESSAGES.emailInvalid)
    .transform((email) => email.toLowerCase()),
  role_id: chosenRole,
});
export type InviteAdministratorInput = z.infer<typeof inviteAdministratorSchema>;

/** intent "change-role" on the administrators list. */
export const changeAdministratorRoleSchema = z.object({
  admin_id: recordId,
  role_id: chosenRole,
});

/** intent "remove" on the administrators list. */
export const removeAdministratorSchema = z.object({ admin_id: recordId });

/** intent "remove" on the roles list. */
export const removeRoleSchema = z.object({ role_id: recordId });

export const ROLE_TYPE_VALUES = ["r", "r_w", "custom"] as const;

/** Permission identifiers from the checkbox list; any identifier outside the catalogue is refused by name. */
export const permissionList = z
  .array(z.string().max(100), { invalid_type_error: "Choose permissions from the list." })
  .max(ALL_PERMISSIONS.length * 2, "Choose permissions from the list.")
  .default([])
  .superRefine((values, ctx) => {
    const unknown = values.filter((v) => !isPermission(v));
    if (unknown.length) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Unknown permission: ${unknown.slice(0, 3).join(", ")}.` });
    }
  })
  .transform((values) => [...new Set(values)] as Permission[]);

/** Name, description and role type: the Update form of a role (updateRole). */
export const roleDetailsSchema = z.object({
  name: requiredText(ACCESS_CONTROL_MESSAGES.roleNameRequired, 100),
  description: z
    .string()
    .trim()
    .max(500, ACCESS_CONTROL_MESSAGES.tooLong)
    .optional()
    .transform((v) => (v ? v : null)),
  // Read only is the default role type (docs/guide/access-control.md#role-types).
  role_type: z.enum(ROLE_TYPE_VALUES, { errorMap: () => ({ message: ACCESS_CONTROL_MESSAGES.roleTypeInvalid }) }).default("r"),
});
export type RoleDetailsInput = z.infer<typeof roleDetailsSchema>;

/** The Add role form (addRole): the details plus the chosen permissions when custom. */
export const createRoleSchema = roleDetailsSchema.extend({ permissions: permissionList });
export type CreateRoleInput = z.infer<typeof createRoleSchema>;

/** The permission checkboxes of a role, saved as a whole set. */
export const rolePermissionsSchema = z.object({ permissions: permissionList });
