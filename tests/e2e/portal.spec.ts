// The guest path in the browser (docs/guide/guest-connect.md#the-page): each make's
// gateway redirect → the connect page → sign-up or click-through → the grant, with JavaScript on
// and off. The gateway the grant sends the browser to is a small local server per test
// (startFakeGateway) that records what reached it; any request to another host is aborted where
// the browser lets it be routed, and every request the browser makes is checked to stay on this machine.
import crypto from "node:crypto";
import type { BrowserContext, Page, Response } from "@playwright/test";
import { startFakeUnifi } from "../../scripts/fakes/unifi-controller";
import { E2E_ENV } from "../../playwright.config";
import { expect, E2E_PORT, GUEST, signIn, test as base } from "./fixtures";
import {
  accessPointLastSeen,
  addOAuthProvider,
  blockDevice,
  connectionByToken,
  connectionCounts,
  consentsOf,
  customerCount,
  dashedMac,
  dottedMac,
  expireToken,
  type FakeGateway,
  hmac,
  makeKnownGuest,
  makePortal,
  merakiEntry,
  merakiGrantUrl,
  mlangoEntry,
  mlangoGrantUrl,
  openndsEntry,
  randomMac,
  sha256,
  startFakeGateway,
  unifiEntry,
} from "./portal-fixtures";

const ORIGIN = `http://localhost:${E2E_PORT}`;
const OAUTH_ORIGIN = new URL(E2E_ENV.OAUTH_PROVIDER_URL).origin;

const ALREADY = "Connection has already been authorized";
const RECONNECT = "Reconnect to WiFi for a new connection session";

const test = base.extend<{ gateway: FakeGateway }>({
  gateway: [
    async ({ context }, use) => {
      const gateway = await startFakeGateway();
      const local = new Set([ORIGIN, OAUTH_ORIGIN, gateway.origin]);
      const strays: string[] = [];
      context.on("request", (request) => {
        const url = new URL(request.url());
        if (!local.has(url.origin)) strays.push(url.href);
      });
      await context.route(
        (url) => !local.has(url.origin),
        (route) => route.abort("blockedbyclient"),
      );
      await use(gateway);
      await gateway.close();
      expect(strays, "the browser asked for no other host").toEqual([]);
    },
    { auto: true },
  ],
});

const tokenOf = (page: Page) => new URL(page.url()).searchParams.get("token")!;

/** A gateway hands the browser over: the entry answers a redirect to /connect?token=… */
async function arrive(page: Page, entry: string): Promise<{ token: string; response: Response }> {
  const response = (await page.goto(entry))!;
  expect(response.request().redirectedFrom()?.url()).toContain("/hotspot/");
  await expect(page).toHaveURL(/\/connect\?token=[\w-]{16,}$/);
  return { token: tokenOf(page), response };
}

interface Guest {
  first: string;
  last: string;
  email: string;
  phone: string;
}

const AMINA: Guest = { first: "Amina", last: "Wanjiru", email: "Amina.Wanjiru@Example.com", phone: "0712 345 678" };

async function signUp(page: Page, guest: Guest, options: { submit?: boolean } = {}) {
  await page.getByLabel("First name").fill(guest.first);
  await page.getByLabel("Last name").fill(guest.last);
  await page.getByLabel("Email address").fill(guest.email);
  await page.getByLabel("Phone number").fill(guest.phone);
  if (options.submit !== false) await page.getByRole("button", { name: "Connect" }).click();
}

/** The browser reached the gateway's grant endpoint: the request it made there. */
async function granted(page: Page, gateway: FakeGateway, prefix: string): Promise<URL> {
  await expect(page).toHaveURL((url) => url.href.startsWith(prefix));
  await expect(page.getByRole("heading", { name: "granted" })).toBeVisible();
  expect(gateway.grants).toHaveLength(1);
  return gateway.grants[0]!;
}

async function expectNoCookies(context: BrowserContext) {
  expect(await context.cookies(), "the guest path sets no cookie").toEqual([]);
}

test("Meraki: a new device signs up, is let through at base_grant_url, and the console shows the guest online", async ({
  page,
  context,
  browser,
  gateway,
}) => {
  const setup = await makePortal();
  const clientMac = randomMac();
  // The operator reads the URL to paste into Meraki from the network's settings page (own browser: the guest's keeps no cookie).
  const operatorContext = await browser.newContext();
  await signIn(operatorContext, setup.owner.id);
  const operator = await operatorContext.newPage();
  await operator.goto(`/${setup.orgId}/venues/${setup.venue.id}/settings`);
  const merakiUrl = await operator.locator('[data-gateway-url="meraki"]').textContent();
  expect(merakiUrl).toBe(`http://localhost:${E2E_PORT}/hotspot/meraki/${setup.venue.portalKey}`);
  // The access point's MAC in Cisco's dotted notation, the client's dash separated: any notation finds them.
  const entry = merakiEntry(setup.venue.portalKey, gateway, { apMac: dottedMac(setup.ap.mac), clientMac: dashedMac(clientMac) });
  expect(entry.startsWith(new URL(merakiUrl!).pathname + "?")).toBe(true);
  const { token } = await arrive(page, entry);

  await expect(page.getByRole("heading", { level: 1, name: "Get connected to WiFi" })).toBeVisible();
  await expect(page.getByText(setup.venue.name)).toBeVisible();
  await expect(page.getByLabel("Phone number")).toHaveValue("07");
  await expect(page.getByText(/By connecting you accept/)).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /news and offers/ })).not.toBeChecked();

  // Submitting empty: the required messages, word for word.
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByText("Email address is required.", { exact: true })).toBeVisible();
  await expect(page.getByText("Phone number is required.", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/connect$/);

  // What was typed is kept when something is still missing.
  await page.getByLabel("First name").fill("Amina");
  await page.getByLabel("Last name").fill("Wanjiru");
  await page.getByLabel("Email address").fill("Amina.Wanjiru@Example.com");
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByText("Phone number is required.", { exact: true })).toBeVisible();
  await expect(page.getByText("Email address is required.", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("First name")).toHaveValue("Amina");
  await expect(page.getByLabel("Last name")).toHaveValue("Wanjiru");
  await expect(page.getByLabel("Email address")).toHaveValue("Amina.Wanjiru@Example.com");
  await expect(page.getByLabel("Phone number")).toHaveValue("07");

  await page.getByLabel("Phone number").fill("0712 345 678");
  await page.getByRole("button", { name: "Connect" }).click();

  const grant = await granted(page, gateway, merakiGrantUrl(gateway));
  expect(`${grant.origin}${grant.pathname}`).toBe(merakiGrantUrl(gateway));
  expect(grant.searchParams.get("continue_url")).toBe("http://neverssl.test/");
  expect(grant.searchParams.get("duration")).toBe(String(90 * 60));
  await expectNoCookies(context);

  const connection = await connectionByToken(token);
  expect(connection).toMatchObject({
    organization_id: setup.orgId,
    venue_id: setup.venue.id,
    access_point_id: setup.ap.id,
    access_point_mac: setup.ap.mac,
    authorization_mode: "SIGNUP",
    gateway: "meraki",
    client_ip: "10.0.4.23",
    device_mac: clientMac,
    first_name: "Amina",
    last_name: "Wanjiru",
    email_address: "amina.wanjiru@example.com",
    phone_number: "+254712345678",
    marketing_opt_in_at: null,
  });
  expect(connection.terms_accepted_at).not.toBeNull();
  expect(await consentsOf(connection.id)).toMatchObject([
    { kind: "marketing", granted: 0 },
    { kind: "terms", granted: 1 },
  ]);
  const seen = await accessPointLastSeen(setup.ap.id);
  expect(seen).not.toBeNull();
  expect(Date.now() - seen!).toBeLessThan(5 * 60_000);

  // The organisation's admin finds the guest online, with the customer's and the access point's names.
  await operator.goto(`/${setup.orgId}/connections`);
  const row = operator.getByRole("row").filter({ hasText: "Amina Wanjiru" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(setup.ap.name);
  await expect(row).toContainText(setup.venue.name);
  await expect(row).toContainText("Sign-up");
  await expect(row).toContainText("Online");

  // The access point was seen: its page counts the guest online.
  await operator.goto(`/${setup.orgId}/ap/${setup.ap.id}/overview`);
  await expect(operator.getByRole("heading", { level: 1, name: setup.ap.name })).toBeVisible();
  const online = operator.locator("dl > div").filter({ has: operator.getByText("Online", { exact: true }) });
  await expect(online.locator("dd")).toHaveText("1");
  await operatorContext.close();
});

test(
  "openNDS: the FAS entry, sign-up and the grant at opennds_auth with tok = sha256(hid + faskey)",
  GUEST,
  async ({ page, context, gateway }) => {
    const setup = await makePortal();
    const clientMac = randomMac();
    const hid = crypto.randomBytes(32).toString("hex");
    const { token } = await arrive(page, openndsEntry(setup.venue.portalKey, gateway, { gatewayMac: setup.ap.mac, clientMac, hid }));
    await expect(page.getByRole("heading", { name: "Get connected to WiFi" })).toBeVisible();
    await signUp(page, AMINA);

    const grant = await granted(page, gateway, `http://${gateway.address}/opennds_auth/`);
    expect(grant.searchParams.get("tok")).toBe(sha256(hid + setup.faskey));
    expect(grant.searchParams.get("redir")).toBe("http://connectivitycheck.gstatic.test/generate_204");
    await expectNoCookies(context);
    expect(await connectionByToken(token)).toMatchObject({
      authorization_mode: "SIGNUP",
      gateway: "opennds",
      access_point_id: setup.ap.id,
      device_mac: clientMac,
      first_name: "Amina",
    });
  },
);

test(
  "UniFi: the external portal entry, sign-up, authorize-guest at the controller, then the network's success URL",
  GUEST,
  async ({ page, context }) => {
    const password = crypto.randomBytes(12).toString("hex");
    const controller = await startFakeUnifi({ username: "mlango", password });
    try {
      const successUrl = `${ORIGIN}/connect/online?from=unifi`;
      const setup = await makePortal({ unifi: { url: controller.url, username: "mlango", password }, venue: { success_url: successUrl } });
      const clientMac = randomMac();
      const { token } = await arrive(
        page,
        unifiEntry(setup.venue.portalKey, {
          site: "default",
          apMac: dashedMac(setup.ap.mac),
          clientMac: clientMac.toUpperCase(),
          url: "http://captive.apple.test/",
        }),
      );
      await signUp(page, AMINA);

      // The network's success URL wins over where the guest was going.
      await expect(page).toHaveURL(successUrl);
      await expect(page.getByRole("heading", { name: "You are online" })).toBeVisible();
      expect(controller.commands).toEqual([{ site: "default", cmd: "authorize-guest", mac: clientMac, minutes: 90, ap_mac: setup.ap.mac }]);
      expect(controller.authorized.has(`default|${clientMac}`)).toBe(true);
      await expectNoCookies(context);
      expect(await connectionByToken(token)).toMatchObject({
        authorization_mode: "SIGNUP",
        gateway: "unifi",
        access_point_id: setup.ap.id,
      });
    } finally {
      await controller.close();
    }
  },
);

test(
  "Mlango's own make: a signed entry, sign-up and a grant signed with the network's gateway secret",
  GUEST,
  async ({ page, context, gateway }) => {
    const setup = await makePortal();
    const clientMac = randomMac();
    const { token } = await arrive(
      page,
      mlangoEntry(setup.venue.portalKey, gateway, setup.gatewaySecret, { apMac: setup.ap.mac, clientMac }),
    );
    await signUp(page, AMINA);

    const grant = await granted(page, gateway, mlangoGrantUrl(gateway));
    const expires = Number(grant.searchParams.get("expires"));
    expect(grant.searchParams.get("token")).toBe(token);
    expect(grant.searchParams.get("duration")).toBe(String(90 * 60));
    expect(expires).toBeGreaterThan(Date.now() / 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() / 1000 + 301);
    // The README's grant message: the tag and the seven values, the device's MAC among them.
    expect(grant.searchParams.get("client_mac")).toBe(clientMac);
    const message = ["mlango-grant-v3", token, clientMac, 90 * 60, expires, "", "", ""].join("\n");
    expect(grant.searchParams.get("signature")).toBe(hmac(setup.gatewaySecret, message));
    await expectNoCookies(context);
    expect(await connectionByToken(token)).toMatchObject({
      authorization_mode: "SIGNUP",
      gateway: "mlango",
      access_point_id: setup.ap.id,
      device_mac: clientMac,
    });

    // A forged signature is refused with a readable page, and nothing is written.
    const before = await connectionCounts(setup.orgId);
    const forged = mlangoEntry(setup.venue.portalKey, gateway, "not-the-network-secret-000", {
      apMac: setup.ap.mac,
      clientMac: randomMac(),
    });
    const refused = (await page.goto(forged))!;
    expect(refused.status()).toBe(400);
    await expect(page.getByText("The gateway's signature does not match this network.")).toBeVisible();
    expect(await connectionCounts(setup.orgId)).toEqual(before);
  },
);

test(
  "click-through: a network that asks for no sign-up shows one Connect button and authorizes CLICK_THROUGH",
  GUEST,
  async ({ page, context, gateway }) => {
    const setup = await makePortal({ venue: { guest_signup: 0 } });
    const { token } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
    await expect(page.getByRole("heading", { name: "Get connected to WiFi" })).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Connect" })).toBeVisible();
    await expect(page.getByRole("textbox")).toHaveCount(0);
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await page.getByRole("button", { name: "Connect" }).click();

    const grant = await granted(page, gateway, merakiGrantUrl(gateway));
    expect(grant.searchParams.get("duration")).toBe(String(90 * 60));
    await expectNoCookies(context);
    expect(await connectionByToken(token)).toMatchObject({ authorization_mode: "CLICK_THROUGH", first_name: null });
  },
);

test(
  "a returning guest whose customer record is complete gets one Connect button and stays one customer (a make that vouches for the MAC)",
  GUEST,
  async ({ page, gateway }) => {
    const setup = await makePortal();
    const clientMac = randomMac();
    const known = await makeKnownGuest(setup.orgId, clientMac);
    // Mlango's signed entry: on Meraki, openNDS and UniFi an unsigned MAC earns no record (decision 0087).
    const { token } = await arrive(
      page,
      mlangoEntry(setup.venue.portalKey, gateway, setup.gatewaySecret, { apMac: setup.ap.mac, clientMac }),
    );
    await expect(page.getByRole("button")).toHaveCount(1);
    await expect(page.getByRole("textbox")).toHaveCount(0);
    await page.getByRole("button", { name: "Connect" }).click();

    await granted(page, gateway, mlangoGrantUrl(gateway));
    expect(await connectionByToken(token)).toMatchObject({
      authorization_mode: "CLICK_THROUGH",
      customer_id: known.customerId,
      first_name: "Baraka",
    });
    expect(await customerCount(setup.orgId)).toBe(1);
  },
);

test(
  "already authorized: reopening the link after the grant says the guest is online, with the messages; one authorization is kept",
  GUEST,
  async ({ page, gateway }) => {
    const setup = await makePortal();
    const { token } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
    await signUp(page, AMINA);
    await granted(page, gateway, merakiGrantUrl(gateway));

    const again = (await page.goto(`/connect?token=${token}`))!;
    expect(again.status()).toBe(409);
    // Online still: the page says so (issue 35 item 7), with the spec's messages.
    await expect(page.getByRole("heading", { name: "You are online" })).toBeVisible();
    await expect(page.getByText(ALREADY, { exact: true })).toBeVisible();
    await expect(page.getByText(RECONNECT, { exact: true })).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);
    expect(await connectionCounts(setup.orgId)).toEqual({ total: 1, authorized: 1 });
    expect(gateway.grants).toHaveLength(1);
  },
);

test(
  "double submit: the second submit from a stale page is told the connection is already authorized",
  GUEST,
  async ({ page, context, gateway }) => {
    const setup = await makePortal();
    const { token } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
    const stale = await context.newPage();
    await stale.goto(`/connect?token=${token}`);
    await signUp(page, AMINA, { submit: false });
    await signUp(stale, { ...AMINA, first: "Someone", last: "Else" }, { submit: false });

    await page.getByRole("button", { name: "Connect" }).click();
    await granted(page, gateway, merakiGrantUrl(gateway));
    const second = stale.waitForResponse((r) => r.url() === `${ORIGIN}/connect` && r.request().method() === "POST");
    await stale.getByRole("button", { name: "Connect" }).click();
    expect((await second).status()).toBe(409);
    await expect(stale.getByText(ALREADY, { exact: true })).toBeVisible();
    await expect(stale.getByText(RECONNECT, { exact: true })).toBeVisible();

    expect(await connectionCounts(setup.orgId)).toEqual({ total: 1, authorized: 1 });
    const connection = await connectionByToken(token);
    expect(connection).toMatchObject({ authorization_mode: "SIGNUP", first_name: "Amina", last_name: "Wanjiru" });
    expect(await consentsOf(connection.id)).toHaveLength(2);
    expect(gateway.grants).toHaveLength(1);
  },
);

test(
  "two submits at the same moment: one is let through, the other sees the already-authorized message",
  GUEST,
  async ({ page, context, gateway }) => {
    const setup = await makePortal();
    const { token } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
    const other = await context.newPage();
    await other.goto(`/connect?token=${token}`);
    await signUp(page, AMINA, { submit: false });
    await signUp(other, AMINA, { submit: false });

    await Promise.all([page.getByRole("button", { name: "Connect" }).click(), other.getByRole("button", { name: "Connect" }).click()]);
    const onGrant = (p: Page) => p.url().startsWith(merakiGrantUrl(gateway));
    await expect.poll(() => [page, other].filter(onGrant).length).toBe(1);
    const loser = onGrant(page) ? other : page;
    await expect(loser.getByText(ALREADY, { exact: true })).toBeVisible();
    await expect(loser.getByText(RECONNECT, { exact: true })).toBeVisible();
    expect(await connectionCounts(setup.orgId)).toEqual({ total: 1, authorized: 1 });
    expect(gateway.grants).toHaveLength(1);
  },
);

test("expired and unknown tokens get readable pages with 410 and 404", GUEST, async ({ page, gateway }) => {
  const setup = await makePortal();
  const { token } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await signUp(page, AMINA, { submit: false });
  // The link expires while the guest fills the form: the submit is refused too.
  await expireToken(token);
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByText("This connection link has expired.", { exact: true })).toBeVisible();
  await expect(page.getByText(RECONNECT, { exact: true })).toBeVisible();

  const expired = (await page.goto(`/connect?token=${token}`))!;
  expect(expired.status()).toBe(410);
  await expect(page.getByRole("heading", { name: "Get connected to WiFi" })).toBeVisible();
  await expect(page.getByText(setup.venue.name)).toBeVisible();
  await expect(page.getByText("This connection link has expired.", { exact: true })).toBeVisible();
  await expect(page.getByText(RECONNECT, { exact: true })).toBeVisible();
  await expect(page.getByRole("button")).toHaveCount(0);
  expect(await connectionCounts(setup.orgId)).toEqual({ total: 1, authorized: 0 });

  for (const unknown of [`/connect?token=${crypto.randomBytes(24).toString("base64url")}`, "/connect?token=%3Cscript%3E", "/connect"]) {
    const response = (await page.goto(unknown))!;
    expect(response.status(), unknown).toBe(404);
    await expect(page.getByText("This connection link is not valid.", { exact: true })).toBeVisible();
    await expect(page.getByText(RECONNECT, { exact: true })).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);
  }
});

test("a bad gateway redirect gets a readable 4xx page, never the form", GUEST, async ({ page, gateway }) => {
  const setup = await makePortal();
  const cases: [string, number, string][] = [
    [
      merakiEntry("NoSuchPortalKey0000000000", gateway, { apMac: setup.ap.mac, clientMac: randomMac() }),
      404,
      "This Wi-Fi network is not set up in Mlango.",
    ],
    [
      `/hotspot/meraki/${setup.venue.portalKey}?base_grant_url=${encodeURIComponent(merakiGrantUrl(gateway))}`,
      400,
      "The access point did not send a valid client_mac.",
    ],
    [`/hotspot/juniper/${setup.venue.portalKey}`, 404, "This gateway type is not supported."],
    [`/hotspot/opennds/${setup.venue.portalKey}?fas=not-base64!!`, 400, "The router did not send a readable fas parameter."],
  ];
  for (const [url, status, message] of cases) {
    const response = (await page.goto(url))!;
    expect(response.status(), url).toBe(status);
    await expect(page.getByRole("heading", { name: "We could not connect you" })).toBeVisible();
    await expect(page.getByText(message)).toBeVisible();
  }
  expect(await connectionCounts(setup.orgId)).toEqual({ total: 0, authorized: 0 });
});

test(
  "a blocked device is refused with the message, on arrival and on a form opened before it was blocked",
  GUEST,
  async ({ page, context, gateway }) => {
    const setup = await makePortal();
    const blockedMac = randomMac();
    await makeKnownGuest(setup.orgId, blockedMac, { blocked: true });
    const { token } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: blockedMac }));
    const blocked = (await page.goto(`/connect?token=${token}`))!;
    expect(blocked.status()).toBe(403);
    await expect(
      page.getByText("This device has been blocked from this network. Ask the venue's staff for help.", { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);

    // Blocked while the guest fills the form.
    const other = await context.newPage();
    const clientMac = randomMac();
    const second = await arrive(other, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac }));
    await signUp(other, AMINA, { submit: false });
    await blockDevice(setup.orgId, clientMac);
    const refused = other.waitForResponse((r) => r.url() === `${ORIGIN}/connect` && r.request().method() === "POST");
    await other.getByRole("button", { name: "Connect" }).click();
    expect((await refused).status()).toBe(403);
    await expect(
      other.getByText("This device has been blocked from this network. Ask the venue's staff for help.", { exact: true }),
    ).toBeVisible();
    expect((await connectionByToken(second.token)).authorized_at).toBeNull();
    expect(await connectionCounts(setup.orgId)).toEqual({ total: 2, authorized: 0 });
  },
);

test("social sign-in: a provider shows its button only once the organisation has configured it", GUEST, async ({ page, gateway }) => {
  const setup = await makePortal();
  const { token } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));
  await expect(page.getByRole("heading", { name: "Get connected to WiFi" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Continue with/ })).toHaveCount(0);

  await addOAuthProvider(setup.orgId, "google");
  await page.reload();
  const google = page.getByRole("link", { name: "Continue with Google" });
  await expect(google).toBeVisible();
  await expect(google).toHaveAttribute("href", `/splash/google/login?token=${token}`);
  await expect(page.getByRole("link", { name: /^Continue with/ })).toHaveCount(1);
  // The sign-up form stays beside it.
  await expect(page.getByLabel("Email address")).toBeVisible();
});

test(
  "social sign-in: Continue with Google through the provider authorizes with mode google and lands on the grant",
  GUEST,
  async ({ page, context, gateway }) => {
    const setup = await makePortal();
    await addOAuthProvider(setup.orgId, "google");
    const { token } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));

    const login = page.waitForResponse((r) => new URL(r.url()).pathname === "/splash/google/login");
    await page.getByRole("link", { name: "Continue with Google" }).click();
    expect((await login).status(), "/splash/google/login sends the guest to the provider").toBe(302);

    await expect(page).toHaveURL((url) => url.origin === OAUTH_ORIGIN && url.pathname === "/google/authorize");
    await expect(page.getByRole("heading", { name: "Sign in with Google" })).toBeVisible();
    await page.getByRole("button", { name: "Allow" }).click();

    const grant = await granted(page, gateway, merakiGrantUrl(gateway));
    expect(grant.searchParams.get("duration")).toBe(String(90 * 60));
    await expectNoCookies(context);
    expect(await connectionByToken(token)).toMatchObject({
      authorization_mode: "google",
      first_name: "Amina",
      last_name: "Otieno",
      email_address: "amina.otieno@example.com",
    });
  },
);

test("the guest page is sandboxed, sets no cookie, asks no other host and weighs under 15 KB", async ({ page, context, gateway }) => {
  const setup = await makePortal();
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  const { response } = await arrive(page, merakiEntry(setup.venue.portalKey, gateway, { apMac: setup.ap.mac, clientMac: randomMac() }));

  const entryResponse = await response.request().redirectedFrom()!.response();
  for (const r of [entryResponse!, response]) {
    const headers = r.headers();
    expect(headers["content-security-policy"]).toMatch(/(^|;)\s*sandbox\b/);
    expect(headers["content-security-policy"]).not.toContain("allow-same-origin");
    expect(headers["content-security-policy"]).not.toContain("allow-scripts");
    expect(headers["set-cookie"]).toBeUndefined();
    expect(headers["referrer-policy"]).toBe("no-referrer");
  }
  const body = await response.body();
  expect(body.length).toBeLessThan(15 * 1024);
  expect(response.headers()["content-type"]).toContain("text/html");
  // The page and its style come in one document: nothing else is fetched.
  expect(requests.filter((url) => !url.includes("/hotspot/") && !url.includes("/connect?token="))).toEqual([]);
  if (test.info().project.name === "enhanced") {
    // Under the sandbox the page has an opaque origin: it can read no console session.
    expect(await page.evaluate(() => window.origin)).toBe("null");
  }

  // The page with errors is sandboxed and small too.
  const errors = page.waitForResponse((r) => r.url() === `${ORIGIN}/connect` && r.request().method() === "POST");
  await page.getByRole("button", { name: "Connect" }).click();
  const errorPage = await errors;
  expect(errorPage.status()).toBe(422);
  expect(errorPage.headers()["content-security-policy"]).toMatch(/\bsandbox\b/);
  expect((await errorPage.body()).length).toBeLessThan(15 * 1024);
  await expectNoCookies(context);
  expect(gateway.grants).toEqual([]);
});
