import { clickAndConfirm } from "./confirm";
import { expect, makeOrg, makeUser, signIn, test } from "./fixtures";
import {
  accessPointPosition,
  deleteAccessPoint,
  expectSavedPosition,
  floorPlanPng,
  makeAccessPoint,
  makeVenue,
  venueMap,
} from "./layout-fixtures";

const isNoJs = () => test.info().project.name === "no-js";

async function networkWithAccessPoint(context: Parameters<typeof signIn>[0]) {
  const owner = await makeUser();
  const org = await makeOrg(owner.id);
  const venue = await makeVenue(org.id);
  const ap = await makeAccessPoint(org.id, venue.id, "Lobby");
  await signIn(context, owner.id);
  return { org, venue, ap };
}

test("uploads a floor plan, refusing a text file named .png, and places an access point on it", async ({ page, context }) => {
  const { org, venue, ap } = await networkWithAccessPoint(context);
  await page.goto(`/${org.id}/venues/${venue.id}/layout`);
  await expect(page.getByText("Upload a floor plan of this network")).toBeVisible();

  await page
    .getByLabel("Floor plan image")
    .setInputFiles({ name: "plan.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
  await page.getByRole("button", { name: "Upload layout plan" }).click();
  await expect(page.getByRole("alert")).toContainText("The file must be a PNG, JPEG or WebP image.");

  await page.getByLabel("Floor plan image").setInputFiles({ name: "plan.png", mimeType: "image/png", buffer: floorPlanPng() });
  await page.getByRole("button", { name: "Upload layout plan" }).click();
  await expect(page.getByRole("status")).toHaveText("Layout plan saved.");
  const image = page.getByRole("img", { name: `Layout plan of ${venue.name}` });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1310);
  const marker = page.getByTestId(`plan-marker-${ap.id}`);
  await expect(marker).toContainText("Lobby");

  if (isNoJs()) {
    await page.getByLabel("X of Lobby").fill("300");
    await page.getByLabel("Y of Lobby").fill("200");
    await page.getByRole("button", { name: "Save positions" }).click();
    await expect(page.getByRole("status")).toHaveText("Access point positions saved.");
    expect(await accessPointPosition(ap.id)).toMatchObject({ layout_x: 300, layout_y: 200 });
    await expect(marker).toHaveAttribute("data-x", "300");
    return;
  }

  // Enhanced: drag the marker to the middle of the plan; the drop is saved without a page load.
  const plan = await page.getByTestId("floor-plan").boundingBox();
  const start = await marker.boundingBox();
  await page.mouse.move(start!.x + start!.width / 2, start!.y + start!.height / 2);
  await page.mouse.down();
  await page.mouse.move(plan!.x + plan!.width / 2, plan!.y + plan!.height / 2, { steps: 8 });
  await page.mouse.up();
  await expectSavedPosition(ap.id, (p) => Math.abs((p.layout_x ?? 0) - 655) <= 3 && Math.abs((p.layout_y ?? 0) - 350) <= 3);
  await page.reload();
  await expect(page.getByTestId(`plan-marker-${ap.id}`)).not.toContainText("not placed");
  const dropped = await accessPointPosition(ap.id);
  await expect(page.getByLabel("X of Lobby")).toHaveValue(String(dropped.layout_x));

  // The keyboard moves a marker too: each arrow press is saved.
  await page.getByTestId(`plan-marker-${ap.id}`).focus();
  await page.keyboard.press("ArrowRight");
  await expectSavedPosition(ap.id, (p) => p.layout_x === dropped.layout_x! + 10 && p.layout_y === dropped.layout_y);
});

test("a marker drop that cannot be saved is reported, and the marker goes back", async ({ page, context }) => {
  test.skip(isNoJs(), "dragging needs JavaScript; the typed form reports its errors in the page");
  const { org, venue, ap } = await networkWithAccessPoint(context);
  const other = await makeAccessPoint(org.id, venue.id, "Bar");
  await page.goto(`/${org.id}/venues/${venue.id}/layout`);
  await page.getByLabel("Floor plan image").setInputFiles({ name: "plan.png", mimeType: "image/png", buffer: floorPlanPng() });
  await page.getByRole("button", { name: "Upload layout plan" }).click();
  await expect(page.getByRole("status")).toHaveText("Layout plan saved.");

  await deleteAccessPoint(ap.id); // someone else removes it meanwhile
  const marker = page.getByTestId(`plan-marker-${ap.id}`);
  const start = await marker.boundingBox();
  await page.mouse.move(start!.x + start!.width / 2, start!.y + start!.height / 2);
  await page.mouse.down();
  await page.mouse.move(start!.x + 200, start!.y + 200, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByRole("alert")).toContainText("The position of Lobby was not saved: Access point not found.");
  await expect(page.getByTestId(`plan-marker-${ap.id}`)).toHaveCount(0); // the page now shows what is saved
  expect(await accessPointPosition(other.id)).toMatchObject({ layout_x: null });
});

test("refuses a floor plan over 10 MB with a clear message", async ({ page, context }) => {
  const { org, venue } = await networkWithAccessPoint(context);
  await page.goto(`/${org.id}/venues/${venue.id}/layout`);
  const big = Buffer.alloc(10 * 1024 * 1024 + 512 * 1024);
  floorPlanPng(4, 4).copy(big);
  await page.getByLabel("Floor plan image").setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: big });
  await page.getByRole("button", { name: "Upload layout plan" }).click();
  // Checked in the browser with JavaScript, by the server without it; the words are the same.
  await expect(page.getByRole("alert")).toContainText("The file is too large: an image can be at most 10 MB.");

  if (isNoJs()) {
    // Beyond what the server reads at all: its own page, with a way back.
    const huge = Buffer.alloc(12 * 1024 * 1024);
    await page.getByLabel("Floor plan image").setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: huge });
    await page.getByRole("button", { name: "Upload layout plan" }).click();
    await expect(page.getByRole("heading", { name: "The request is too large." })).toBeVisible();
    await expect(page.getByText("Uploaded files can be at most 10 MB.")).toBeVisible();
    await page.getByRole("link", { name: "Go back" }).click();
    await expect(page).toHaveURL(new RegExp(`/${org.id}/venues/${venue.id}/layout`));
  }
});

test("the map loads without outside requests; access points are placed and a zone is added and removed", async ({ page, context }) => {
  const outside: string[] = [];
  // The context's requests include the map's worker.
  context.on("request", (request) => {
    const url = new URL(request.url());
    if (!["data:", "blob:"].includes(url.protocol) && !["localhost", "127.0.0.1"].includes(url.hostname)) outside.push(request.url());
  });
  const { org, venue, ap } = await networkWithAccessPoint(context);
  const worker = isNoJs() ? null : page.waitForRequest(/\/vendor\/maplibre-gl-worker\.mjs/, { timeout: 15_000 });
  await page.goto(`/${org.id}/venues/${venue.id}/map`);
  await expect(page.getByRole("heading", { name: "Map", exact: true })).toBeVisible();

  if (isNoJs()) {
    await expect(page.getByText("The map needs JavaScript.")).toBeVisible();
    await page.getByLabel("Latitude of Lobby").fill("-1.2864");
    await page.getByLabel("Longitude of Lobby").fill("36.8172");
    await page.getByRole("button", { name: "Save positions" }).click();
    await expect(page.getByRole("status")).toHaveText("Access point positions saved.");
    const saved = await accessPointPosition(ap.id);
    expect(saved.lat).toBeCloseTo(-1.2864, 6);
    expect(saved.lng).toBeCloseTo(36.8172, 6);

    await page.getByLabel("Zone latitude").fill("-1.2865");
    await page.getByLabel("Zone longitude").fill("36.8170");
    await page.getByRole("button", { name: "Add zone" }).click();
    await expect(page.getByRole("status")).toHaveText("Zone added.");
  } else {
    expect((await worker)?.url()).toMatch(/\?v=\d+\.\d+\.\d+$/);
    const map = page.getByTestId("network-map");
    await expect(map.locator("canvas.maplibregl-canvas")).toBeVisible();
    const marker = page.getByTestId(`map-marker-${ap.id}`);
    await expect(marker).toContainText("Lobby");

    // Drag the access point's marker; its new spot is saved.
    const box = await marker.boundingBox();
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    await page.mouse.down();
    await page.mouse.move(box!.x + box!.width / 2 + 120, box!.y + box!.height / 2 + 90, { steps: 10 });
    await page.mouse.up();
    await expectSavedPosition(ap.id, (p) => p.lat !== null && p.lng !== null);

    // Update Layout saves the (starting) polygon with the map's centre and zoom.
    await page.getByRole("button", { name: "Update Layout" }).click();
    await expect.poll(async () => (await venueMap(venue.id)).layout_polygon !== null, { timeout: 10_000 }).toBe(true);
    const saved = await venueMap(venue.id);
    expect(JSON.parse(saved.layout_polygon!)).toHaveLength(1);
    expect(saved.map_zoom).toBe(19);
    expect(saved.lat).toBeCloseTo(-1.286389, 4);

    // Click an empty spot of the map, confirm, and the zone is saved and listed.
    const area = await map.boundingBox();
    const question = new Promise<string>((resolve) =>
      page.once("dialog", async (dialog) => {
        resolve(dialog.message());
        await dialog.accept();
      }),
    );
    await page.mouse.click(area!.x + area!.width * 0.25, area!.y + area!.height * 0.75);
    expect(await question).toBe("Add a zone here?");
  }
  const zones = page.getByRole("region", { name: "Zones" });
  await expect(zones.getByRole("row").filter({ hasText: "Zone 1" })).toBeVisible();

  await clickAndConfirm(page, zones.getByRole("row").filter({ hasText: "Zone 1" }).getByRole("button", { name: "Remove" }));
  await expect(page.getByRole("status")).toHaveText("Zone removed.");
  await expect(zones.getByText("No zones yet.")).toBeVisible();
  expect(outside).toEqual([]);
});
