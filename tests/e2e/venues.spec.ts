import { clickAndConfirm } from "./confirm";
import { expect, makeMember, makeOrg, makeUser, signIn, test } from "./fixtures";
import { makeVenue } from "./venues-fixtures";

test("creates a network from the list, opens it, edits its settings and deletes it after confirming", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await signIn(context, owner.id);

  await page.goto(`/${org.id}/venues`);
  await expect(page.getByRole("heading", { name: "Networks" })).toBeVisible();
  await page.getByRole("link", { name: "New Network" }).click();
  await expect(page).toHaveURL(`/${org.id}/venue/create`);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Name field is required.")).toBeVisible();
  await expect(page.getByText("Address field is required.")).toBeVisible();
  await page.getByLabel("Name").fill("Sarit Centre");
  await page.getByLabel("Address").fill("Westlands, Nairobi");
  await page.getByLabel("Phone number").fill("0712 345 678");
  await page.getByRole("button", { name: "Create" }).click();
  // Spec 2: back to the networks list, the new network in it; its name opens its profile.
  await expect(page).toHaveURL(`/${org.id}/venues`);
  await expect(page.getByText("Network Sarit Centre created.")).toBeVisible();
  await page.getByRole("link", { name: "Sarit Centre" }).first().click();
  await expect(page).toHaveURL(/\/venues\/\d+(\/overview)?$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sarit Centre" })).toBeVisible();
  await expect(page.getByText("Currently Connected")).toBeVisible();
  await expect(page.getByText("Traffic flow")).toBeVisible();

  await page.getByRole("navigation", { name: "Network" }).getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Sarit Mall");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
  await page.getByLabel("Email").fill("wifi@sarit.example");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Network updated.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Sarit Mall" })).toBeVisible();

  const question = await clickAndConfirm(page, page.getByRole("button", { name: "Delete network" }));
  expect(question).toBe(
    "Are you sure you want to delete the network Sarit Mall? It has no access points. Its connection history is kept, no longer linked to a network.",
  );
  await expect(page).toHaveURL(`/${org.id}/venues`);
  await expect(page.getByRole("row").filter({ hasText: "Sarit Mall" })).toHaveCount(0);
});

test("adds an access point to a network, opens it, edits it and deletes it after confirming", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const venue = await makeVenue(org.id, "Yaya Centre");
  await signIn(context, owner.id);

  await page.goto(`/${org.id}/venues/${venue.id}/access-points`);
  await expect(page.getByText("No access points in this network yet.")).toBeVisible();
  await page.getByRole("link", { name: "New access point" }).click();
  await expect(page).toHaveURL(`/${org.id}/ap/create?venue_id=${venue.id}`);
  await expect(page.getByRole("heading", { name: "New hotspot" })).toBeVisible();
  await page.getByRole("button", { name: "Create" }).click();
  for (const message of [
    "Name field is required.",
    "Make field is required.",
    "Mac address field is required.",
    "Serial number field is required.",
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await page.getByLabel("Name").fill("Food court");
  await page.getByLabel("Make").selectOption("Mikrotik");
  await page.getByLabel("Mac address").fill("not a mac");
  await page.getByLabel("Serial number").fill("MK-42");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText(/Enter a MAC address such as/)).toBeVisible();
  await page.getByLabel("Mac address").fill("A0B1.C2D3.E4F5");
  await page.getByLabel("Layout X").fill("640");
  await page.getByLabel("Layout Y").fill("350");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/ap\/\d+\/overview$/);
  await expect(page.getByText("Access point Food court created.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Food court" })).toBeVisible();
  await expect(page.getByText("a0:b1:c2:d3:e4:f5")).toBeVisible();
  const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(breadcrumb.getByRole("link", { name: "Yaya Centre" })).toBeVisible();
  await expect(page.getByText("Unique Clients")).toBeVisible();

  await page.getByRole("navigation", { name: "Access point" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByLabel("Layout X")).toHaveValue("640");
  await page.getByLabel("Name").fill("Food court west");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Access point updated.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Food court west" })).toBeVisible();

  const question = await clickAndConfirm(page, page.getByRole("button", { name: "Delete" }));
  expect(question).toBe("Are you sure you want to delete the access point Food court west? Its connection history is kept.");
  await expect(page).toHaveURL(`/${org.id}/venues/${venue.id}/access-points`);
  await expect(page.getByText("Access point Food court west deleted.")).toBeVisible();
  await expect(page.getByText("No access points in this network yet.")).toBeVisible();
});

test("a read-only member sees networks without New Network and is refused the create page", async ({ page, context }) => {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  await makeVenue(org.id, "Junction Mall");
  const member = await makeMember(org.id, "r");
  await signIn(context, member.id);
  await page.goto(`/${org.id}/venues`);
  await expect(page.getByRole("link", { name: "Junction Mall" })).toBeVisible();
  await expect(page.getByRole("link", { name: "New Network" })).toHaveCount(0);
  const response = await page.goto(`/${org.id}/venue/create`);
  expect(response?.status()).toBe(403);
  await expect(page.getByText("You do not have permission to do that.")).toBeVisible();
});
