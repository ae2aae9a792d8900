// The checked-in SDL (schema.graphql) is the schema the code serves, and every list is weighed by
// its page size in the cost limit. When this fails after a schema change: npm run graphql:schema.
import fs from "node:fs";
import { getNamedType, getNullableType, isListType, isObjectType, type GraphQLField } from "graphql/index.js";
import { describe, expect, it } from "vitest";
import { printedSchema, schema } from "~/services/graphql/schema.server";

describe("schema.graphql", () => {
  it("is the schema in code, printed (run npm run graphql:schema after changing it)", () => {
    expect(fs.readFileSync("schema.graphql", "utf8")).toBe(printedSchema());
  });

  it("gives every list with a limit argument a cost multiplied by its limit, and a limit default of at most 250", () => {
    const unweighed: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith("__")) continue;
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        const limit = field.args.find((a) => a.name === "limit");
        if (!isListType(getNullableType(field.type)) || !limit || !isObjectType(getNamedType(field.type))) continue;
        const cost = field.astNode?.directives?.find((d) => d.name.value === "complexity");
        const multipliers = cost?.arguments?.find((a) => a.name.value === "multipliers")?.value;
        const weighed =
          multipliers?.kind === "ListValue" && multipliers.values.some((v) => v.kind === "StringValue" && v.value === "limit");
        if (!weighed) unweighed.push(`${type.name}.${field.name}`);
        if (typeof limit.defaultValue === "number") expect(limit.defaultValue, `${type.name}.${field.name}`).toBeLessThanOrEqual(250);
      }
    }
    expect(unweighed).toEqual([]);
  });

  it("names the spec's queries and mutations with the spec's arguments", () => {
    const query = schema.getQueryType()!.getFields();
    const mutation = schema.getMutationType()!.getFields();
    const args = (field: GraphQLField<unknown, unknown>) => field.args.map((a) => a.name);
    for (const name of [
      "profile",
      "usageSummary",
      "venueUsageSummary",
      "accessPointUsageSummary",
      "aggregateUsageSummary",
      "aggregateAuthModeSummary",
      "aggregateDeviceSummary",
      "organization",
      "roles",
      "role",
      "permissions",
      "myReports",
      "customers",
      "customersCount",
      "venue",
      "accessPoint",
      "customer",
      "devices",
      "newVisitors",
      "newVisitorsCount",
      "uniqueVisitors",
      "repeatVisitors",
      "repeatVisitorsCount",
      "overview",
      "venues",
      "accessPoints",
    ]) {
      expect(query[name], name).toBeDefined();
    }
    for (const name of [
      "updateUser",
      "closeConnection",
      "updateAdmin",
      "removeAdmin",
      "removeRole",
      "addRole",
      "updateRole",
      "assignPermission",
      "subscribeReport",
      "unsubscribeReport",
      "blockDevice",
    ]) {
      expect(mutation[name], name).toBeDefined();
    }
    expect(args(query.venueUsageSummary)).toEqual(["venues", "startDate", "endDate", "orderBy", "limit"]);
    expect(args(query.aggregateDeviceSummary)).toEqual(expect.arrayContaining(["venues", "groupBy", "startDate", "endDate"]));
    const organization = schema.getType("Organization");
    if (!isObjectType(organization)) throw new Error("Organization is not an object type");
    expect(args(organization.getFields().connections)).toEqual([
      "venues",
      "customers",
      "devices",
      "accessPoints",
      "online",
      "authorized",
      "startDate",
      "endDate",
      "search",
      "limit",
      "offset",
      "order",
    ]);
    expect(args(query.customers)).toEqual(
      expect.arrayContaining(["venues", "devices", "accessPoints", "online", "authorized", "limit", "offset", "search"]),
    );
    expect(args(mutation.addRole)).toEqual(["name", "description", "role_type", "permissions"]);
    expect(args(mutation.updateRole)).toEqual(["id", "name", "description", "role_type"]);
    expect(args(mutation.assignPermission)).toEqual(["action", "permissionIdentifier", "roleId"]);
    expect(args(mutation.updateAdmin)).toEqual(["adminId", "roleId"]);
    expect(args(mutation.subscribeReport)).toEqual(["report", "sendTime"]);
    expect(args(mutation.blockDevice)).toEqual(["mac_address"]);
    expect(args(mutation.updateUser)).toEqual(["dashboard"]);
  });
});
