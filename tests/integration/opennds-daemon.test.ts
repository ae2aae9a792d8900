// The real openNDS 9.10 (Debian's package) as Mlango's FAS sees it, in network namespaces
// (tests/fixtures/opennds-daemon.ts), on SQLite and PostgreSQL. The gateway is configured with the
// set-up steps exactly as the network's settings page shows them (the Debian opennds.conf form), plus
// what only this test bed needs (its interface, and leaving the machine's /etc/hosts alone). A new
// device takes a DHCP lease, asks for a plain http page, is sent by openNDS to Mlango with `fas`, signs
// up without JavaScript, is sent to opennds_auth with tok = sha256(hid + faskey), and `ndsctl json`
// shows it Authenticated; then the "internet" answers it. Mlango's agent from the same page, run with
// BusyBox on the router, cuts the guest off when the console closes the connection. Skipped, with a notice, where namespaces or
// the packages are missing (bash .ci/run installs them).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { hashToken } from "~/services/crypto.server";
import { closeConnection } from "~/services/connections.server";
import { FASKEY_PLACEHOLDER, GATEWAY_SECRET_PLACEHOLDER } from "~/services/portal/gateways/opennds.server";
import { getGatewaySettings } from "~/services/portal/settings.server";
import { encryptSecret } from "~/services/secrets.server";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import {
  CLIENT_MAC,
  GATEWAY_IP,
  GATEWAY_MAC,
  INTERNET_ANSWER,
  INTERNET_URL,
  openndsUnavailable,
  startOpenndsWorld,
  until,
  type OpenndsWorld,
} from "../fixtures/opennds-daemon";
import { makeNetwork } from "../fixtures/portal";
import { contextOf } from "../fixtures/records";

const unavailable = openndsUnavailable();
if (unavailable) console.warn(`\n[opennds-daemon.test] The real-openNDS test is SKIPPED: ${unavailable}.\n`);

// The faskey holds characters a shell would trip on if openNDS quoted it badly (but no %).
const FASKEY = "kahawa-Faskey_0123456789+/=";
const ORIGINAL_URL = `${INTERNET_URL}/~amina/news?q=~~~`;

let world: OpenndsWorld;
let server: TestServer;
beforeAll(async () => {
  if (unavailable) return;
  world = await startOpenndsWorld();
  server = await startBuiltServer({ PUBLIC_URL: `http://${world.hostIp}:${world.proxyPort}` });
  world.setProxyTarget(Number(new URL(server.origin).port));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await world?.close();
}, 60_000);

/** The hidden and filled-in fields of the page's sign-up form, as a browser without JavaScript posts them. */
function signUpForm(page: string, base: string) {
  const form = /<form\b[^>]*method="post"[^>]*>[\s\S]*?<\/form>/i.exec(
    page.replace(/<form\b(?![^>]*method="post")[^>]*>[\s\S]*?<\/form>/gi, ""),
  );
  if (!form) throw new Error(`No sign-up form in the page:\n${page.slice(0, 2000)}`);
  const decode = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const action = decode(/action="([^"]*)"/.exec(form[0])?.[1] ?? "");
  const fields: Record<string, string> = {};
  for (const input of form[0].matchAll(/<(?:input|button)\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/.exec(input[0])?.[1];
    const value = /\bvalue="([^"]*)"/.exec(input[0])?.[1];
    if (name && value !== undefined && !/type="checkbox"/.test(input[0])) fields[decode(name)] = decode(value);
  }
  Object.assign(fields, {
    first_name: "Amina",
    last_name: "Otieno",
    email_address: "amina@example.com",
    phone_number: "0712 345 678",
  });
  return { url: new URL(action || "/connect", base).href, fields };
}

describe.skipIf(unavailable !== null)(
  `the real openNDS 9.10 in network namespaces${unavailable ? ` (skipped: ${unavailable})` : ""}`,
  () => {
    it("sends a new device to Mlango, lets it in after a sign-up without JavaScript, and the internet answers", async () => {
      const { org, owner } = await makeOrg(`openNDS daemon ${Math.random()}`);
      const { venue, ap, secret } = await makeNetwork(org.id, { opennds_faskey: encryptSecret(FASKEY), session_minutes: 60 }, GATEWAY_MAC);
      const ctx = await contextOf(owner.id, org.id);

      // The Debian form of the steps the settings page shows, faskey filled in.
      const settings = await getGatewaySettings(ctx, venue.id);
      const steps = settings.gateways.find((g) => g.make === "opennds")!.steps;
      const debian = steps.find((step) => step.includes("/etc/opennds/opennds.conf"))!;
      const conf = debian
        .split("\n")
        .slice(1)
        .map((line) => line.replace(FASKEY_PLACEHOLDER, FASKEY));
      expect(conf).toContain(`fasremoteip ${world.hostIp}`);
      expect(conf).toContain(`fasport ${world.proxyPort}`);
      await world.startGateway([
        ...conf,
        // This test bed's own: the guests' interface, and no edits to the machine's /etc/hosts or dnsmasq.conf.
        "GatewayInterface lan0",
        "GatewayName Kahawa",
        "gatewayfqdn disable",
        "dhcp_default_url_enable 0",
        "FirewallRuleSet users-to-router {",
        "  FirewallRule allow udp port 53",
        "  FirewallRule allow tcp port 53",
        "  FirewallRule allow udp port 67",
        "}",
      ]);

      const clientIp = await world.joinWifi();
      expect(clientIp).toMatch(/^198\.51\.100\./);

      // A plain http request before sign-in: openNDS sends the browser to Mlango with fas.
      const intercepted = await until("openNDS to know the client", async () => {
        const answer = await world.curl(ORIGINAL_URL);
        return answer.location ? answer : undefined;
      });
      const toMlango = new URL(intercepted.location!);
      expect(`${toMlango.origin}${toMlango.pathname}`).toBe(
        `http://${world.hostIp}:${world.proxyPort}/hotspot/opennds/${venue.portal_key}`,
      );
      const fas = intercepted.location!.slice(intercepted.location!.indexOf("?fas=") + 5);
      const decoded = Buffer.from(fas, "base64").toString();
      expect(decoded).toContain(`clientmac=${CLIENT_MAC}`);

      const entry = await world.curl(intercepted.location!);
      expect(entry.status, entry.body).toBe(302);
      const connectUrl = new URL(entry.location!, toMlango).href;
      const token = new URL(connectUrl).searchParams.get("token")!;
      const connection = await db.selectFrom("connections").selectAll().where("token", "=", hashToken(token)).executeTakeFirstOrThrow();
      expect(connection).toMatchObject({ gateway: "opennds", client_ip: clientIp, access_point_id: ap.id });

      const page = await world.curl(connectUrl);
      expect(page.status).toBe(200);
      const form = signUpForm(page.body, connectUrl);
      const signedUp = await world.curl(form.url, form.fields);
      expect(signedUp.status, signedUp.body.slice(0, 500)).toBe(303);
      const grant = new URL(signedUp.location!);
      expect(`${grant.origin}${grant.pathname}`).toBe(`http://${GATEWAY_IP}:2050/opennds_auth/`);

      // The browser follows to openNDS, which checks tok and lets the device out.
      const authed = await world.curl(grant.href);
      expect(authed.status, world.log()).toBe(307);
      expect(authed.location).toBe(ORIGINAL_URL);
      const client = await until("ndsctl to show the client authenticated", async () => {
        const found = (await world.ndsctlJson()).clients[CLIENT_MAC];
        return found?.state === "Authenticated" ? found : undefined;
      });
      expect(client).toMatchObject({ ip: clientIp, mac: CLIENT_MAC, state: "Authenticated" });
      // FAS level 1 carries no limits: openNDS applies its own (none are set here).
      expect(client).toMatchObject({ download_quota: "null", upload_quota: "null", download_rate_limit_threshold: "null" });

      const online = await world.curl(`${INTERNET_URL}/`);
      expect(online).toMatchObject({ status: 200, body: INTERNET_ANSWER });

      // Mlango's agent, from the settings page, on the router: closing in the console cuts the guest off.
      const agentStep = steps.find((step) => step.includes("/usr/bin/mlango-opennds-agent"))!;
      const [howTo, ...script] = agentStep.split("\n");
      const env = Object.fromEntries([...howTo!.matchAll(/(MLANGO_[A-Z_]+)='([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
      expect(env).toEqual({
        MLANGO_URL: `http://${world.hostIp}:${world.proxyPort}`,
        MLANGO_PORTAL_KEY: venue.portal_key,
        MLANGO_SECRET: GATEWAY_SECRET_PLACEHOLDER,
      });
      // Every 2 seconds instead of 30, so the test does not wait.
      world.startAgent(`${script.join("\n")}\n`, { ...env, MLANGO_SECRET: secret, MLANGO_INTERVAL: "2" });
      // The agent's first poll finds nothing to do: the guest stays.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect((await world.ndsctlJson()).clients[CLIENT_MAC]?.state, world.log()).toBe("Authenticated");

      const closed = await closeConnection(ctx, Number(connection.id));
      expect(closed.gateway).toMatchObject({ make: "opennds", revocation: "poll" });
      const closedAt = Date.now();
      await until(
        "the agent to deauthenticate the guest",
        async () => ((await world.ndsctlJson()).clients[CLIENT_MAC] === undefined ? true : undefined),
        60_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${world.log()}`);
      });
      console.info(`[opennds-daemon.test] deauthenticated ${((Date.now() - closedAt) / 1000).toFixed(1)} s after Close`);
      const cutOff = await world.curl(`${INTERNET_URL}/`);
      expect(cutOff.status).toBe(307);
      expect(cutOff.location).toContain(`/hotspot/opennds/${venue.portal_key}?fas=`);
    }, 240_000);
  },
);
