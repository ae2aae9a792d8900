// Roles, permissions and administrators (docs/guide/access-control.md#routes,
// docs/guide/api.md#data-api-graphql). Reading needs view_settings like the access-control
// pages; each mutation needs what its page's action needs and refuses with the spec's message
// (roles.server.ts, access-control.server.ts check it).
import type { ZodTypeAny, z } from "zod";
import { isPermission } from "~/lib/permissions";
import { createRoleSchema, roleDetailsSchema } from "~/lib/schemas/access-control";
import { changeAdministratorRole, listAdministrators, removeAdministrator } from "../../access-control.server";
import { requirePermission, type OrgContext } from "../../guard.server";
import {
  assignPermission,
  createRole,
  getRole,
  listPermissions,
  listRoles,
  removeRole,
  requireRolePermissionEditing,
  updateRole,
} from "../../roles.server";
import { badInput, done, mutation, refused } from "../errors.server";
import { checkOrder, pageOf, recordId, searchOf, type PageArgs } from "../args.server";
import { iso, type Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  type Role {
    id: ID!
    name: String!
    description: String
    "r (Read only), r_w (Full access) or custom."
    role_type: String!
    created_at: String!
    "Identifiers of the permissions chosen for a custom role (r and r_w hold theirs by type)."
    permissions: [String!]!
  }

  type Permission {
    id: ID!
    name: String!
    identifier: String!
    description: String
  }

  type AdministratorUser {
    id: ID!
    name: String
    email: String
    phone_number: String
  }

  "An administrator of the organization; user is null for an invitation not yet registered ('Pending registration')."
  type Administrator {
    id: ID!
    role_id: ID
    role_name: String
    status: String!
    invited_email_address: String
    im_admin: Boolean!
    user: AdministratorUser
  }

  extend type Query {
    "view_settings. Newest first."
    roles(limit: Int = 10, offset: Int = 0, order: String = "created_at desc", search: String): [Role!]! @complexity(value: 1, multipliers: ["limit"])
    "view_settings."
    rolesCount(search: String): Int!
    "view_settings."
    role(id: ID!): Role!
    "view_settings. The permission catalogue."
    permissions: [Permission!]!
    "view_settings. The owner first, then by date of invitation."
    administrators: [Administrator!]!
  }

  extend type Mutation {
    "edit_administrators."
    updateAdmin(adminId: ID!, roleId: ID!): MutationResult!
    "delete_administrators."
    removeAdmin(adminId: ID!): MutationResult!
    "delete_roles."
    removeRole(id: ID!): MutationResult!
    "create_roles. role_type r (default), r_w or custom; permissions count for custom only."
    addRole(name: String!, description: String, role_type: String, permissions: [String!]): MutationResult!
    "update_roles."
    updateRole(id: ID!, name: String!, description: String, role_type: String): MutationResult!
    "update_roles and edit_roles. action is addition or deletion."
    assignPermission(action: String!, permissionIdentifier: String!, roleId: ID!): MutationResult!
  }
`;

/** A mutation's input through the page's own zod schema; the first message is the refusal (422). */
function parse<S extends ZodTypeAny>(schema: S, input: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)));
  if (!parsed.success) badInput(parsed.error.issues[0]?.message ?? "Invalid input.");
  return parsed.data;
}

const roleParent = (
  ctx: OrgContext,
  role: { id: number; name: string; description: string | null; role_type: string; created_at: number },
) => ({ ctx, ...role });

export const resolvers: Resolvers = {
  Query: {
    async roles(_, args: PageArgs & { order?: string }, context) {
      const ctx = await context.org();
      requirePermission(ctx, "view_settings");
      checkOrder(args.order, "created_at desc");
      const { roles } = await listRoles(ctx, pageOf(args));
      return roles.map((r) => roleParent(ctx, r));
    },
    async rolesCount(_, args: { search?: string }, context) {
      const ctx = await context.org();
      requirePermission(ctx, "view_settings");
      return (await listRoles(ctx, { offset: 0, pageSize: 1, search: searchOf(args.search) })).total;
    },
    async role(_, args: { id: string }, context) {
      const ctx = await context.org();
      requirePermission(ctx, "view_settings");
      const role = await getRole(ctx, recordId(args.id));
      return { ...roleParent(ctx, role), permissions: role.permissions };
    },
    async permissions(_, _args, context) {
      requirePermission(await context.org(), "view_settings");
      return listPermissions();
    },
    async administrators(_, _args, context) {
      const ctx = await context.org();
      requirePermission(ctx, "view_settings");
      return (await listAdministrators(ctx)).map((a) => ({
        id: a.id,
        role_id: a.roleId,
        role_name: a.roleName,
        status: a.status,
        invited_email_address: a.invitedEmail,
        im_admin: a.isOwner,
        user: a.userId === null ? null : { id: a.userId, name: a.name, email: a.email, phone_number: a.phoneNumber },
      }));
    },
  },
  Role: {
    created_at: (p: { created_at: number }) => iso(p.created_at),
    permissions: (p: { ctx: OrgContext; id: number; permissions?: string[] }, _args, context) =>
      p.permissions ?? context.loaders(p.ctx).rolePermissions.load(p.id),
  },
  Mutation: {
    updateAdmin: (_, args: { adminId: string; roleId: string }, context) =>
      mutation(async () => {
        await changeAdministratorRole(await context.org(), recordId(args.adminId), recordId(args.roleId));
        return done("Administrator role changed.", args.adminId);
      }),
    removeAdmin: (_, args: { adminId: string }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        const { removedSelf } = await removeAdministrator(ctx, recordId(args.adminId));
        return done(removedSelf ? `You are no longer an administrator of ${ctx.org.name}.` : "Administrator removed.", args.adminId);
      }),
    removeRole: (_, args: { id: string }, context) =>
      mutation(async () => {
        const { name, members } = await removeRole(await context.org(), recordId(args.id));
        const consequence =
          members === 0
            ? ""
            : ` ${members === 1 ? "One administrator" : `${members} administrators`} who had it no longer ${members === 1 ? "holds" : "hold"} its permissions until given another role.`;
        return done(`Role ${name} removed.${consequence}`, args.id);
      }),
    addRole: (_, args: { name: string; description?: string; role_type?: string; permissions?: string[] }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, "create_roles");
        const input = parse(createRoleSchema, args);
        const role = await createRole(ctx, input);
        return done(`Role ${input.name} created.`, role.id);
      }),
    updateRole: (_, args: { id: string; name: string; description?: string; role_type?: string }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requirePermission(ctx, "update_roles");
        const { id, ...fields } = args;
        await updateRole(ctx, recordId(id), parse(roleDetailsSchema, fields));
        return done("Role updated.", id);
      }),
    assignPermission: (_, args: { action: string; permissionIdentifier: string; roleId: string }, context) =>
      mutation(async () => {
        const ctx = await context.org();
        requireRolePermissionEditing(ctx);
        if (args.action !== "addition" && args.action !== "deletion") badInput("action must be addition or deletion.");
        if (!isPermission(args.permissionIdentifier)) badInput(`Unknown permission: ${args.permissionIdentifier.slice(0, 100)}.`);
        const outcome = await assignPermission(ctx, recordId(args.roleId), args.permissionIdentifier, args.action);
        return outcome.ok
          ? done("Role permissions saved.", args.roleId)
          : refused(422, outcome.formErrors?.[0] ?? "Invalid input.", args.roleId);
      }),
  },
};
