import { db, migrateToLatest } from "~/db/db.server";
import { defineCommand, UsageError, wholeNumber } from "../command";

export default defineCommand({
  name: "generate",
  summary: "migrate, then add a separate generated organisation (for benchmarks); prints its owner's sign-in",
  options: {
    connections: { type: "string", value: "N", required: true, summary: "connections to generate, e.g. 1_000_000" },
    customers: { type: "string", value: "N", summary: "customers (default: 6% of the connections)" },
    devices: { type: "string", value: "N", summary: "devices (default: 10% of the connections, at least the customers)" },
    venues: { type: "string", value: "N", summary: "venues (default: 5)" },
    "access-points": { type: "string", value: "N", summary: "access points, at least one per venue (default: 30)" },
    days: { type: "string", value: "N", summary: "days of history up to now (default: 90)" },
    seed: { type: "string", value: "N", summary: "random seed: the same seed gives the same organisation (default: 20261122)" },
  },
  async run(values) {
    const number = (name: keyof typeof values) => {
      const raw = values[name];
      return raw === undefined ? undefined : wholeNumber(`--${name}`, raw);
    };
    const sizes = {
      connections: number("connections"),
      customers: number("customers"),
      devices: number("devices"),
      venues: number("venues"),
      accessPoints: number("access-points"),
      days: number("days"),
      seed: number("seed"),
    };
    const { generateDemoData, resolveSizes } = await import("~/tools/demo.server");
    // Refuse before creating anything.
    try {
      resolveSizes(sizes);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }

    await migrateToLatest();
    const { randomToken } = await import("~/services/crypto.server");
    const { insertUser } = await import("~/tools/factories.server");
    const stamp = Date.now();
    const password = randomToken(12);
    const owner = await insertUser({
      first_name: "Bench",
      last_name: `Owner ${stamp}`,
      email: `bench-${stamp}@example.com`,
      phone_number: await unusedPhone(stamp),
      password,
    });
    const result = await generateDemoData({
      ...sizes,
      ownerId: owner.id,
      organizationName: `Generated ${new Date(stamp).toISOString()}`,
      log: console.log,
    });
    const rate = Math.round(result.connections / result.seconds);
    console.log(
      `Organization ${result.organizationId}: ${result.connections.toLocaleString("en-US")} connections in ${result.seconds.toFixed(1)} s ` +
        `(${rate.toLocaleString("en-US")} connections/s); owner ${owner.email} / ${password}`,
    );
  },
});

/** A phone number no user has yet, in a range the demo users do not use (+25479…). */
async function unusedPhone(stamp: number): Promise<string> {
  for (let n = stamp % 10_000_000; ; n = (n + 1) % 10_000_000) {
    const phone = `+25479${String(n).padStart(7, "0")}`;
    const taken = await db.selectFrom("users").select("id").where("phone_number", "=", phone).executeTakeFirst();
    if (!taken) return phone;
  }
}
