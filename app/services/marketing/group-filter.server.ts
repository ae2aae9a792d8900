// Compiles a group's filters (app/lib/schemas/group-filters.ts) into one parameterised Kysely query of
// the organisation's customer ids, the same on SQLite and PostgreSQL. The group's Customers section
// pages it; a broadcast's dispatch uses it as a subquery (`where customers.id in (…)`).
// STUB: answers every customer of the organisation until the compiler is written.
import type { Kysely } from "kysely";
import type { GroupFilters } from "~/lib/schemas/group-filters";
import type { DB } from "~/db/schema";

export function groupMemberIds(executor: Kysely<DB>, organizationId: number, _filters: GroupFilters, _today = new Date()) {
  return executor.selectFrom("customers").select("customers.id").where("customers.organization_id", "=", organizationId);
}
