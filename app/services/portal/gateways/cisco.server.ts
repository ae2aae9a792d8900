// Cisco Wireless LAN Controller (AireOS / Catalyst 9800) external web authentication: the controller
// redirects the guest here with switch_url (its login address), ap_mac, client_mac, wlan and
// redirect. The grant posts the controller's web-auth form to switch_url (buttonClicked=4,
// username, password, redirect_url); the controller then asks RADIUS (PAP). Written from Cisco's
// documentation of external web auth; tested against our fake, not a real controller (docs/radius.md).
import { radiusGateway, registerSteps } from "../../radius/gateway.server";
import { httpUrl, ip, mac, param, short } from "./params";

export const cisco = radiusGateway({
  make: "cisco",
  label: "Cisco WLC external web auth (RADIUS)",
  parseEntry(query) {
    const switchUrl = httpUrl(param(query, "switch_url"));
    if (!switchUrl) return { ok: false, message: "The controller did not send a valid switch_url." };
    const clientMac = mac(param(query, "client_mac"));
    if (!clientMac) return { ok: false, message: "The controller did not send a valid client_mac." };
    const apParam = param(query, "ap_mac");
    const apMac = mac(apParam);
    if (apParam && !apMac) return { ok: false, message: "The controller sent an ap_mac that is not a MAC address." };
    return {
      ok: true,
      entry: {
        apMac,
        clientMac,
        clientIp: ip(param(query, "client_ip")),
        ssid: short(param(query, "wlan"), 64),
        continueUrl: httpUrl(param(query, "redirect")),
        context: { switch_url: switchUrl },
      },
    };
  },
  loginForm(context, { username, password }, successUrl) {
    return {
      action: context.switch_url!,
      fields: [
        ["buttonClicked", "4"],
        ["err_flag", "0"],
        ["username", username],
        ["password", password],
        ["redirect_url", successUrl],
      ],
    };
  },
  setup(origin, { portalKey }) {
    return {
      url: `${origin}/hotspot/cisco/${portalKey}`,
      steps: [
        ...registerSteps(origin),
        "On the controller: Security → AAA → RADIUS: add FreeRADIUS for authentication and accounting with the secret, with Support for CoA enabled.",
        "WLAN → Security → Layer 3: Web Policy, Authentication, with the external web server set to the URL above (Security → Web Auth → Web Login Page: External).",
        `Pre-authentication ACL: allow this console's host (${new URL(origin).host}) and your social sign-in providers' hosts.`,
      ],
    };
  },
});
