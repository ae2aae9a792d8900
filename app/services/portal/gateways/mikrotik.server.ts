// MikroTik RouterOS hotspot: the router's login.html (we ship it: GET …/login.html) posts the guest's
// mac, ip, link-login-only, link-orig, chap-id, chap-challenge and the router's identity here. The grant
// posts one-time credentials to link-login-only: PAP, or the CHAP response when the router sent a
// challenge (computed here, so the guest's browser needs no JavaScript for it). The router then asks
// RADIUS; limits come back as Session-Timeout, Mikrotik-Rate-Limit and Mikrotik-Total-Limit, and
// closing a connection is a Disconnect-Message (docs/radius.md).
import { chapResponse, octalBytesHex } from "../../radius/login.server";
import { radiusGateway, registerSteps } from "../../radius/gateway.server";
import { httpUrl, ip, mac, param, short } from "./params";

export const mikrotik = radiusGateway({
  make: "mikrotik",
  label: "MikroTik hotspot (RADIUS)",
  parseEntry(query) {
    const clientMac = mac(param(query, "mac"));
    if (!clientMac) return { ok: false, message: "The router did not send a valid mac." };
    const loginUrl = httpUrl(param(query, "link-login-only"));
    if (!loginUrl) return { ok: false, message: "The router did not send a valid link-login-only." };
    const context: Record<string, string> = { link_login_only: loginUrl };
    const chapId = param(query, "chap-id");
    const chapChallenge = param(query, "chap-challenge");
    if (chapId || chapChallenge) {
      const id = octalBytesHex(chapId);
      const challenge = octalBytesHex(chapChallenge);
      if (!id || !challenge) return { ok: false, message: "The router sent a chap-id or chap-challenge that is not in MikroTik's form." };
      context.chap_id = id;
      context.chap_challenge = challenge;
    }
    const identity = short(param(query, "identity"), 64);
    if (identity) context.identity = identity;
    // The access point: an ap_mac the operator added to login.html, or an identity that is a MAC.
    const apMac = mac(param(query, "ap_mac")) ?? mac(identity);
    return {
      ok: true,
      entry: { apMac, clientMac, clientIp: ip(param(query, "ip")), ssid: null, continueUrl: httpUrl(param(query, "link-orig")), context },
    };
  },
  loginForm(context, { username, password }, successUrl) {
    const chap = context.chap_id && context.chap_challenge;
    return {
      action: context.link_login_only!,
      fields: [
        ["username", username],
        ["password", chap ? chapResponse(context.chap_id!, password, context.chap_challenge!) : password],
        ["dst", successUrl],
        ["popup", "false"],
      ],
    };
  },
  setup(origin, { portalKey }) {
    return {
      url: `${origin}/hotspot/mikrotik/${portalKey}`,
      steps: [
        ...registerSteps(origin),
        "On the router: /radius add service=hotspot address=<FreeRADIUS address> secret=<the secret>; /radius incoming set accept=yes port=3799; /ip hotspot profile set [find] use-radius=yes login-by=http-chap,http-pap radius-interim-update=received.",
        `Download login.html from ${origin}/hotspot/mikrotik/${portalKey}/login.html and upload it to the router's hotspot folder (Files → hotspot/), replacing the router's own.`,
        walledGardenStep(origin),
      ],
    };
  },
});

/**
 * The walled-garden rule that lets guests reach Mlango before they log in. `dst-host` is a host
 * name and the port is its own `dst-port` (RouterOS manual, IP/Hotspot → Walled Garden); the HTTP
 * walled garden only sees plain http, so an https console also needs an IP walled-garden rule.
 */
export function walledGardenStep(origin: string): string {
  const url = new URL(origin);
  const port = url.port ? ` dst-port=${url.port}` : "";
  const rules = [`/ip hotspot walled-garden add dst-host=${url.hostname}${port}`];
  if (url.protocol === "https:") {
    rules.push(`/ip hotspot walled-garden ip add dst-host=${url.hostname} protocol=tcp dst-port=${url.port || "443"} action=accept`);
  }
  return `Walled garden: ${rules.join("; ")}, with your social sign-in providers' hosts if you use them.`;
}

/**
 * The login.html an operator uploads to the router: it sends the guest, with the router's variables,
 * to Mlango. RouterOS serves login.html for a failed login too when the folder has no flogin.html,
 * with $(error) set to the reason — for a RADIUS refusal, Mlango's Reply-Message (RouterOS manual,
 * Hotspot customisation → Serving Servlet Pages and Variables; `$(if …)`/`$(else)`/`$(endif)` are
 * its conditionals). Then the page shows the reason and waits for the guest instead of sending
 * them straight back to a fresh connect page, which would hide it.
 */
export function mikrotikLoginHtml(entryUrl: string): string {
  const fields = ["mac", "ip", "link-login-only", "link-orig", "chap-id", "chap-challenge", "identity"]
    .map((name) => `<input type="hidden" name="${name}" value="$(${name})">`)
    .join("\n");
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Wi-Fi</title></head>
<body>
<!-- Mlango: sends the guest to the connect page. Upload as hotspot/login.html (and remove any flogin.html). -->
$(if error)
<p><strong>You are not online yet.</strong></p>
<p id="error">$(error)</p>
$(endif)
<form name="mlango" method="post" action="${entryUrl}">
${fields}
$(if error)
<button type="submit">Try again</button>
$(else)
<noscript><p>Press the button to get connected.</p></noscript>
<button type="submit">Get connected</button>
$(endif)
</form>
$(if error)
$(else)
<script>document.mlango.submit();</script>
$(endif)
</body></html>
`;
}
