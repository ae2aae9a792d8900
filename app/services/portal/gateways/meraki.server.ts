// Cisco Meraki click-through splash: the access point sends the guest to our URL with
// base_grant_url; granting is a redirect of the browser to it. Meraki cannot be told to cut a
// guest off from outside (the session lasts `duration`).
// Limits: the grant URL takes only `continue_url` and `duration`, so a plan's time limit is the one
// the access point enforces. Speeds and data are left to Mlango, which can enforce neither for
// click-through: it is not in the traffic's path and click-through sends no accounting. Per-client
// speeds come from the SSID's (or a group policy's) bandwidth limit in Dashboard; data limits hold
// only as far as the session's time does (docs/decisions/0017, "Enforcement per make").
import { httpUrl, ip, mac, param, short } from "./params";
import type { GatewayAdapter } from "./types";

export const meraki: GatewayAdapter = {
  make: "meraki",
  label: "Cisco Meraki",
  revocation: "none",
  identifiesDevice: false,
  parseEntry(query) {
    const grantUrl = httpUrl(param(query, "base_grant_url"));
    if (!grantUrl) return { ok: false, message: "The access point did not send a valid base_grant_url." };
    const clientMac = mac(param(query, "client_mac"));
    if (!clientMac) return { ok: false, message: "The access point did not send a valid client_mac." };
    const nodeMac = param(query, "node_mac");
    const apMac = mac(nodeMac);
    if (nodeMac && !apMac) return { ok: false, message: "The access point sent a node_mac that is not a MAC address." };
    const context: Record<string, string> = { base_grant_url: grantUrl };
    const nodeId = short(param(query, "node_id"));
    const gatewayId = short(param(query, "gateway_id"));
    if (nodeId) context.node_id = nodeId;
    if (gatewayId) context.gateway_id = gatewayId;
    return {
      ok: true,
      entry: {
        apMac,
        clientMac,
        clientIp: ip(param(query, "client_ip")),
        ssid: null,
        continueUrl: httpUrl(param(query, "user_continue_url")),
        context,
      },
    };
  },
  // `limits` are not carried: the grant URL has no place for them (see the header).
  async grant({ context, successUrl, seconds }) {
    const url = new URL(context.base_grant_url!);
    url.searchParams.set("continue_url", successUrl);
    url.searchParams.set("duration", String(seconds));
    return url.href;
  },
  setup(origin, { portalKey }) {
    return {
      url: `${origin}/hotspot/meraki/${portalKey}`,
      steps: [
        "In Meraki Dashboard open Wireless → Access control for the SSID and choose Splash page: Click-through.",
        "Open Wireless → Splash page, choose Custom splash URL and paste the URL above.",
        `Add this console's host (${new URL(origin).host}) to the walled garden, with your social sign-in providers' hosts if you use them.`,
      ],
    };
  },
};
