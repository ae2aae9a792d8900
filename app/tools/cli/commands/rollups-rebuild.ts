import { migrateToLatest } from "~/db/db.server";
import { defineCommand, wholeNumber } from "../command";

export default defineCommand({
  name: "rollups:rebuild",
  summary: "recompute the analytics roll-ups from the connections, e.g. after a bulk load that stopped half-way",
  options: {
    organization: { type: "string", value: "N", summary: "one organisation's id (default: every organisation)" },
  },
  async run({ organization }) {
    const organizationId = organization === undefined ? undefined : wholeNumber("--organization", organization, 1);
    await migrateToLatest();
    const { rebuildRollups } = await import("~/db/rollups.server");
    await rebuildRollups(organizationId);
    console.log(
      `Analytics roll-ups rebuilt for ${organizationId === undefined ? "every organization" : `organization ${organizationId}`}.`,
    );
  },
});
