import { describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { CUSTOMER_MESSAGES } from "~/lib/schemas/customers";
import * as account from "~/routes/$orgId+/_customers+/customers+/$customerId+/account";
import * as profileLayout from "~/routes/$orgId+/_customers+/customers+/$customerId+/_layout";
import * as customerConnections from "~/routes/$orgId+/_customers+/customers+/$customerId+/connections";
import * as customersPage from "~/routes/$orgId+/_customers+/customers+/_index";
import { getCustomer, listCustomers, updateCustomer } from "~/services/customers.server";
import { makeMember, makeOrg, run } from "../fixtures";
import { callRoute, contextOf, insertConnection, insertCustomer, insertDevice, makeConnectionWorld, toastOf } from "../fixtures/records";

const BASE = Date.UTC(2026, 10, 20, 12, 0);
const list = (search = "", pageSize = 10, offset = 0) => ({ search, pageSize, offset });
const customerRow = (id: number) =>
  db
    .selectFrom("customers")
    .select(["first_name", "middle_name", "last_name", "email_address", "phone_number", "identity"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

async function ownerOf() {
  const { org, owner } = await makeOrg();
  return { org, owner, ctx: await contextOf(owner.id, org.id) };
}

describe("listCustomers", () => {
  it("lists customers newest first and searches names, local phone numbers and emails", async () => {
    const { org, ctx } = await ownerOf();
    const amina = await insertCustomer(org.id, {
      first_name: "Amina",
      last_name: "Yusuf",
      phone_number: "0722 111 222",
      email_address: "Amina@Example.com",
      created_at: BASE,
    });
    const brian = await insertCustomer(org.id, {
      first_name: "Brian",
      last_name: "Kiprop",
      phone_number: "+254733000999",
      twitter: "@brian",
      created_at: BASE + 1,
    });
    const page = await listCustomers(ctx, {}, list());
    expect(page.rows.map((c) => c.id)).toEqual([brian.id, amina.id]);
    expect(page.rows[0]).toMatchObject({ name: "Brian Kiprop", phoneNumber: "+254733000999", twitter: "@brian", emailAddress: null });
    const found = async (term: string) => (await listCustomers(ctx, {}, list(term))).rows.map((c) => c.id);
    expect(await found("amina yusuf")).toEqual([amina.id]);
    expect(await found("0722111222")).toEqual([amina.id]);
    expect(await found("amina@example")).toEqual([amina.id]);
    expect(await found("KIPROP")).toEqual([brian.id]);
    expect(await found("zzz")).toEqual([]);
  });

  it("lists the customers of a venue or access point: those with a connection there", async () => {
    const { org, ctx } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 1);
    const other = await makeConnectionWorld(org.id, 1, BASE + 3_600_000);
    await insertCustomer(org.id); // never connected
    const ids = async (filter: Parameters<typeof listCustomers>[1]) => (await listCustomers(ctx, filter, list())).rows.map((c) => c.id);
    expect(await ids({ venueId: world.venue.id })).toEqual([world.customer.id]);
    expect(await ids({ accessPointMac: other.accessPoint.mac_address })).toEqual([other.customer.id]);
    expect((await listCustomers(ctx, {}, list())).total).toBe(3);
  });

  it("needs view_clients for the page and keeps organisations apart", async () => {
    const { org, owner } = await ownerOf();
    await insertCustomer(org.id, { first_name: "Mine" });
    const other = await makeOrg("Other");
    await insertCustomer(other.org.id, { first_name: "Theirs" });
    const res = await callRoute(customersPage.loader, { userId: owner.id, orgId: org.id, path: `/${org.id}/customers?search=i` });
    const data = await res.json();
    expect(data.customers.rows.map((c: { name: string }) => c.name)).toEqual(["Mine"]);
    const networkOnly = await makeMember(org.id, "custom", ["view_networks"]);
    expect(
      (await callRoute(customersPage.loader, { userId: networkOnly.user.id, orgId: org.id, path: `/${org.id}/customers` })).status,
    ).toBe(403);
  });
});

describe("customer profile", () => {
  it("shows identity, phone, email and counts of authorized connections and devices", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 3);
    await insertDevice(org.id, { customer_id: world.customer.id });
    await insertConnection(org.id, { customer_id: world.customer.id, created_at: BASE }); // a portal visit: not a connection
    const res = await callRoute(profileLayout.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/customers/${world.customer.id}`,
      params: { customerId: String(world.customer.id) },
    });
    const { customer } = await res.json();
    expect(customer).toMatchObject({
      identity: "+254712000111",
      phoneNumber: "+254712000111",
      name: "Achieng Odhiambo",
      connectionsCount: 3,
      devicesCount: 2,
    });
  });

  it("lists the customer's connections with an export of the same", async () => {
    const { org, owner } = await ownerOf();
    const world = await makeConnectionWorld(org.id, 2);
    await makeConnectionWorld(org.id, 1, BASE + 3_600_000);
    const res = await callRoute(customerConnections.loader, {
      userId: owner.id,
      orgId: org.id,
      path: `/${org.id}/customers/${world.customer.id}/connections`,
      params: { customerId: String(world.customer.id) },
    });
    const data = await res.json();
    expect(data.page.rows.map((r: { id: number }) => r.id)).toEqual(world.connections.map((c) => c.id).reverse());
    expect(data.exportHref).toBe(`/${org.id}/connections.csv?status=authorized&customer_id=${world.customer.id}`);
  });

  it("is 404 for another organisation's customer or a malformed id", async () => {
    const { org, owner, ctx } = await ownerOf();
    const other = await makeOrg("Other");
    const theirs = await insertCustomer(other.org.id);
    for (const id of [String(theirs.id), "abc", "0"]) {
      const res = await callRoute(profileLayout.loader, {
        userId: owner.id,
        orgId: org.id,
        path: `/${org.id}/customers/${id}`,
        params: { customerId: id },
      });
      expect(res.status).toBe(404);
    }
    expect((await run(() => getCustomer(ctx, theirs.id))).status).toBe(404);
  });
});

describe("updating a customer's account info", () => {
  const post = (userId: number, orgId: number, customerId: number | string, form: Record<string, string>) =>
    callRoute(account.action, {
      userId,
      orgId,
      path: `/${orgId}/customers/${customerId}/account`,
      params: { customerId: String(customerId) },
      form,
    });

  it("saves names, a normalised phone number and a lower-cased email for a holder of edit_clients", async () => {
    const { org } = await ownerOf();
    const customer = await insertCustomer(org.id, { phone_number: "+254712000111" });
    const editor = await makeMember(org.id, "custom", ["view_clients", "edit_clients"]);
    const res = await post(editor.user.id, org.id, customer.id, {
      first_name: " Wanjiku ",
      middle_name: "",
      last_name: "Kamau",
      email_address: "Wanjiku@Example.COM",
      phone_number: "0799 123 456",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/${org.id}/customers/${customer.id}/account`);
    expect(await toastOf(res)).toEqual({ type: "success", message: CUSTOMER_MESSAGES.updated });
    expect(await customerRow(customer.id)).toEqual({
      first_name: "Wanjiku",
      middle_name: null,
      last_name: "Kamau",
      email_address: "wanjiku@example.com",
      phone_number: "+254799123456",
      identity: "+254712000111",
    });
    // The search text follows the update.
    const ctx = await contextOf(editor.user.id, org.id);
    expect((await listCustomers(ctx, {}, list("0799123456"))).rows.map((c) => c.id)).toEqual([customer.id]);
  });

  it("refuses without edit_clients with a clear message, shows the form read-only, and changes nothing", async () => {
    const { org } = await ownerOf();
    const customer = await insertCustomer(org.id, { first_name: "Before" });
    const viewer = await makeMember(org.id, "r");
    const res = await post(viewer.user.id, org.id, customer.id, { first_name: "After", last_name: "X" });
    expect(res.status).toBe(403);
    expect((await res.json()).error[""]).toEqual([CUSTOMER_MESSAGES.notAllowed]);
    expect((await customerRow(customer.id)).first_name).toBe("Before");
    const page = await callRoute(account.loader, {
      userId: viewer.user.id,
      orgId: org.id,
      path: `/${org.id}/customers/${customer.id}/account`,
      params: { customerId: String(customer.id) },
    });
    expect(await page.json()).toMatchObject({ canEdit: false, account: { first_name: "Before" } });
    const ctx = await contextOf(viewer.user.id, org.id);
    expect(
      (
        await run(() =>
          updateCustomer(ctx, customer.id, {
            first_name: "X",
            middle_name: null,
            last_name: null,
            email_address: null,
            phone_number: null,
          }),
        )
      ).status,
    ).toBe(403);
  });

  it("explains an invalid email or phone number and keeps the record", async () => {
    const { org, owner } = await ownerOf();
    const customer = await insertCustomer(org.id, { first_name: "Keep" });
    const res = await post(owner.id, org.id, customer.id, { first_name: "Changed", email_address: "not-an-email", phone_number: "12" });
    expect(res.status).toBe(400);
    const reply = await res.json();
    expect(reply.error.email_address).toEqual([CUSTOMER_MESSAGES.emailInvalid]);
    expect(reply.error.phone_number).toEqual([CUSTOMER_MESSAGES.phoneInvalid]);
    expect(reply.initialValue.first_name).toBe("Changed");
    expect((await customerRow(customer.id)).first_name).toBe("Keep");
  });

  it("refuses an email or phone number of another customer of the organisation", async () => {
    const { org, owner } = await ownerOf();
    await insertCustomer(org.id, { phone_number: "+254700111222", email_address: "taken@example.com" });
    const customer = await insertCustomer(org.id);
    const res = await post(owner.id, org.id, customer.id, { email_address: "TAKEN@example.com", phone_number: "0700111222" });
    expect(res.status).toBe(400);
    const reply = await res.json();
    expect(reply.error.email_address).toEqual([CUSTOMER_MESSAGES.emailTaken]);
    expect(reply.error.phone_number).toEqual([CUSTOMER_MESSAGES.phoneTaken]);
  });

  it("is 404 for another organisation's customer, with or without edit_clients", async () => {
    const { org, owner } = await ownerOf();
    const other = await makeOrg("Other");
    const theirs = await insertCustomer(other.org.id, { first_name: "Theirs" });
    const viewer = await makeMember(org.id, "r");
    expect((await post(owner.id, org.id, theirs.id, { first_name: "Hacked" })).status).toBe(404);
    expect((await post(viewer.user.id, org.id, theirs.id, { first_name: "Hacked" })).status).toBe(404);
    expect((await customerRow(theirs.id)).first_name).toBe("Theirs");
  });
});
