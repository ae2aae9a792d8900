// A MikroTik hotspot guest in the browser, with JavaScript on and off: the router's
// login.html (Mlango's download, filled in by a fake router) sends the phone to Mlango, the connect
// page authorizes, the grant page posts one-time credentials to the router, the router logs the
// guest in through the real FreeRADIUS and Mlango, and the phone lands on "You are online".
import crypto from "node:crypto";
import { expect, test as base } from "@playwright/test";
import { E2E_ENV, E2E_PORT } from "../../playwright.config";
import { startFakeMikrotik, type FakeMikrotik } from "../../scripts/fakes/mikrotik";
import { freeradiusInstalled, startFreeRadius, type FreeRadius } from "../../scripts/radius/freeradius";
import { makePortal, randomMac } from "./portal-fixtures";

const { db } = await import("~/db/db.server");
const { encryptSecret } = await import("~/services/secrets.server");

const ORIGIN = `http://localhost:${E2E_PORT}`;

async function freePort(): Promise<number> {
  const dgram = await import("node:dgram");
  const socket = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  socket.close();
  return port;
}

const test = base.extend<
  { router: FakeMikrotik; setup: Awaited<ReturnType<typeof makePortal>> },
  { freeradius: FreeRadius & { authPort: number; acctPort: number } }
>({
  freeradius: [
    async ({}, use) => {
      const authPort = await freePort();
      const acctPort = await freePort();
      const server = await startFreeRadius({
        mlangoUrl: `http://127.0.0.1:${E2E_PORT}`,
        apiSecret: E2E_ENV.RADIUS_API_SECRET,
        authPort,
        acctPort,
      });
      await use(Object.assign(server, { authPort, acctPort }));
      await server.stop();
    },
    { scope: "worker" },
  ],
  setup: async ({}, use) => {
    await use(await makePortal({ venue: { guest_signup: 0, session_minutes: 90 } }));
  },
  router: async ({ freeradius, setup }, use) => {
    // A loopback address of its own: FreeRADIUS knows a NAS by its address.
    const address = `127.200.${crypto.randomInt(1, 250)}.${crypto.randomInt(1, 250)}`;
    const secret = crypto.randomBytes(18).toString("base64url");
    const now = Date.now();
    await db
      .insertInto("radius_clients")
      .values({
        organization_id: setup.orgId,
        venue_id: setup.venue.id,
        name: "Lobby router",
        make: "mikrotik",
        ip_address: address,
        secret: encryptSecret(secret),
        coa_port: 3799,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const router = await startFakeMikrotik({ address, secret, authPort: freeradius.authPort, acctPort: freeradius.acctPort });
    router.hostMac = randomMac();
    router.identity = setup.ap.mac;
    router.loginHtml = await (await fetch(`${ORIGIN}/hotspot/mikrotik/${setup.venue.portalKey}/login.html`)).text();
    await use(router);
    await router.close();
  },
});

test.skip(!freeradiusInstalled(), "FreeRADIUS is not installed (apt-get install freeradius freeradius-rest freeradius-utils)");

for (const chap of [false, true]) {
  test(`MikroTik ${chap ? "CHAP" : "PAP"}: login.html → connect page → the grant page posts to the router → online through FreeRADIUS`, async ({
    page,
    router,
    setup,
  }, testInfo) => {
    const js = testInfo.project.name === "enhanced";
    router.useChap = chap;
    const routerOrigin = new URL(router.loginUrl).origin;
    await page.goto(`${routerOrigin}/login.html`);
    if (!js) await page.getByRole("button", { name: "Get connected" }).click();
    await expect(page).toHaveURL(/\/connect\?token=[\w-]{16,}$/);
    const token = new URL(page.url()).searchParams.get("token")!;
    await expect(page.getByRole("heading", { name: "Get connected to WiFi" })).toBeVisible();
    await page.getByRole("button", { name: "Connect" }).click();

    if (!js) {
      // Without JavaScript the grant page waits for the guest's press.
      await expect(page).toHaveURL(/\/hotspot\/mikrotik\/[\w-]+\/login\?token=/);
      await expect(page.getByRole("heading", { name: "You are almost online" })).toBeVisible();
      await page.getByRole("button", { name: "Go online" }).click();
    }
    await expect(page).toHaveURL(`${ORIGIN}/connect/online?token=${token}`);
    await expect(page.getByRole("heading", { name: "You are online" })).toBeVisible();

    const connection = await db
      .selectFrom("connections")
      .innerJoin("devices", "devices.id", "connections.device_id")
      .select([
        "connections.id",
        "connections.authorization_mode",
        "connections.radius_client_id",
        "connections.accounted_at",
        "connections.access_point_id",
        "devices.mac_address",
      ])
      .where("connections.venue_id", "=", setup.venue.id)
      .executeTakeFirstOrThrow();
    expect(connection).toMatchObject({ authorization_mode: "CLICK_THROUGH", mac_address: router.hostMac, access_point_id: setup.ap.id });
    expect(connection.radius_client_id).not.toBeNull();
    expect(router.logins).toEqual([{ username: `mlg${connection.id}`, code: "Access-Accept", replyMessage: null }]);
    expect(Number(router.sessions.get(`mlg${connection.id}`)!.reply["Session-Timeout"])).toBeGreaterThan(90 * 60 - 60);
    // The router's Accounting-Start reached Mlango through FreeRADIUS.
    await expect
      .poll(
        async () =>
          (await db.selectFrom("connections").select("accounted_at").where("id", "=", connection.id).executeTakeFirstOrThrow())
            .accounted_at,
      )
      .not.toBeNull();
  });
}
