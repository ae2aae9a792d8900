// Ruckus ZoneDirector / SmartZone hotspot (WISPr) with an external portal: the controller redirects
// the guest here with sip (the controller's address for logins), mac (the access point), client_mac,
// uip (the guest's address), ssid and url (where the guest was going). The grant posts username and
// password to http://{sip}:9997/login; the controller then asks RADIUS. Written from Ruckus's
// documentation of the hotspot external portal; tested against our fake only (docs/radius.md).
import { radiusGateway, registerSteps } from "../../radius/gateway.server";
import { httpUrl, ip, mac, param, short } from "./params";

/** A host name or address (no scheme, port or path), as the controller sends sip. */
const HOST = /^[A-Za-z0-9.-]{1,253}$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;

export const ruckus = radiusGateway({
  make: "ruckus",
  label: "Ruckus hotspot / WISPr (RADIUS)",
  parseEntry(query) {
    const sip = param(query, "sip");
    if (!sip || !HOST.test(sip)) return { ok: false, message: "The controller did not send a valid sip." };
    const clientMac = mac(param(query, "client_mac"));
    if (!clientMac) return { ok: false, message: "The controller did not send a valid client_mac." };
    const apParam = param(query, "mac");
    const apMac = mac(apParam);
    if (apParam && !apMac) return { ok: false, message: "The controller sent a mac (access point) that is not a MAC address." };
    return {
      ok: true,
      entry: {
        apMac,
        clientMac,
        clientIp: ip(param(query, "uip")),
        ssid: short(param(query, "ssid"), 64),
        continueUrl: httpUrl(param(query, "url")),
        context: { sip },
      },
    };
  },
  loginForm(context, { username, password }, successUrl) {
    return {
      action: `http://${context.sip}:9997/login`,
      fields: [
        ["username", username],
        ["password", password],
        ["url", successUrl],
      ],
    };
  },
  setup(origin, { portalKey }) {
    return {
      url: `${origin}/hotspot/ruckus/${portalKey}`,
      steps: [
        ...registerSteps(origin),
        "On the controller: add FreeRADIUS as the AAA server for authentication and accounting (with the secret), and enable CoA/Disconnect from it.",
        "Create a Hotspot (WISPr) service whose login page is the URL above, and attach it to the guest WLAN.",
        `Walled garden: this console's host (${new URL(origin).host}) and your social sign-in providers' hosts.`,
      ],
    };
  },
});
