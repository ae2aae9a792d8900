// openNDS Forward Authentication Service, level 1 (fas_secure_enabled 1): the router sends the
// guest with `fas` = base64 of "key=value, key=value…"; granting is a redirect to the router's
// opennds_auth with tok = sha256(hid + faskey). openNDS takes no orders from outside, so closing
// reaches it only through Mlango's agent on the router (opennds-agent.ts), which polls the
// network's revocation list and runs `ndsctl deauth` (docs/decisions/0075).
// Limits: at FAS levels 0–2 the authentication call is only opennds_auth/?tok&redir (plus a free
// `custom` string that openNDS hands to a local BinAuth script); a client's session length, rates
// and quotas can be set only by BinAuth or, at level 3, by the Authmon daemon (openNDS docs, "FAS":
// sessionlength, uploadrate/downloadrate in kbit/s, uploadquota/downloadquota in kB). `custom`
// travels through the guest's browser unsigned, so a guest could strip limits put there: nothing is
// carried. Mlango ends the connection at `seconds` (the idle-end job), but the router keeps the guest
// until its own `sessiontimeout`, and openNDS sends no accounting, so data and speed limits are only
// the router's global ones (uploadquota/downloadquota, uploadrate/downloadrate in its config)
// (docs/decisions/0017, "Enforcement per make").
import crypto from "node:crypto";
import { OPENNDS_AGENT } from "./opennds-agent";
import { httpUrl, ip, mac, MAX_PARAM, short } from "./params";
import { GatewayError, type GatewayAdapter, type SetupNetwork } from "./types";

const FAS_FIELDS = [
  "clientip",
  "clientmac",
  "client_type",
  "gatewayname",
  "gatewayurl",
  "version",
  "hid",
  "gatewayaddress",
  "gatewaymac",
  "originurl",
  "clientif",
] as const;
/** host or host:port (an IPv4 address or a name), never a path or credentials. */
const GATEWAY_ADDRESS = /^[a-z0-9.-]{1,253}(:\d{1,5})?$/i;

/** The decoded fields of `fas`, or null when it is not base64 of key=value pairs. */
export function decodeFas(fas: string): Map<string, string> | null {
  if (fas.length > 4 * MAX_PARAM || !/^[A-Za-z0-9+/=_-]+$/.test(fas)) return null;
  const text = Buffer.from(fas, "base64").toString("utf8");
  const fields = new Map<string, string>();
  for (const part of text.split(/,\s*/)) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    let value = part.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // openNDS sends most values plain; a stray % stays as it is
    }
    if ((FAS_FIELDS as readonly string[]).includes(name)) fields.set(name, value);
  }
  return fields.has("clientmac") ? fields : null;
}

/**
 * `fas` as openNDS sends it: raw standard base64 after `?fas=`, not URL-escaped (src/http_microhttpd.c,
 * encode_and_redirect_to_splashpage), so each `+` of it reached us as a space through the query's
 * form decoding. Base64 holds no spaces: they are put back before decoding, and nothing is trimmed
 * first (a `+` may be the last character).
 */
export function fasParameter(query: URLSearchParams): string | null {
  const fas = query.get("fas")?.replace(/ /g, "+");
  return fas ? fas : null;
}

/** Stands for the network's faskey in the set-up steps: the page never shows the secret. */
export const FASKEY_PLACEHOLDER = "<your faskey>";
export const GATEWAY_SECRET_PLACEHOLDER = "<your gateway secret>";

/**
 * The FAS options, as UCI lines (OpenWrt) and `keyword value` lines (opennds.conf), for Mlango at
 * `origin` (openNDS docs, "FAS": the FAS URL is http://fasremotefqdn:fasport/faspath, built by
 * openNDS itself, so fasremotefqdn is a bare host name; openNDS lets unauthenticated guests through to
 * fasremoteip:fasport only, and fasremoteip defaults to the router; login_option_enabled above 0 turns
 * FAS off, and OpenWrt's default file sets it to 1). No fas_https: no openNDS release has it.
 */
export function openndsSettings(origin: string, network: SetupNetwork) {
  const url = new URL(origin);
  const https = url.protocol === "https:";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const hostIsIpv4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  const ipv4 = hostIsIpv4 ? host : (network.originIpv4 ?? `<IPv4 address of ${host}>`);
  const options: [string, string][] = [
    ["login_option_enabled", "0"],
    ["fas_secure_enabled", "1"],
    ["fasremoteip", ipv4],
    ...(hostIsIpv4 ? [] : ([["fasremotefqdn", host]] as [string, string][])),
    ["fasport", https ? "80" : url.port || "80"],
    ["faspath", `/hotspot/opennds/${network.portalKey}`],
    ["faskey", FASKEY_PLACEHOLDER],
  ];
  return {
    uci: options.map(([name, value]) => `option ${name} '${value}'`),
    conf: options.map(([name, value]) => `${name} ${value}`),
    https,
  };
}

export const opennds: GatewayAdapter = {
  make: "opennds",
  label: "openNDS (FAS)",
  // Through the agent, where the router runs it; revoke.server.ts says so when closing.
  revocation: "poll",
  identifiesDevice: false,
  parseEntry(query) {
    const fas = fasParameter(query);
    const fields = fas ? decodeFas(fas) : null;
    if (!fields) return { ok: false, message: "The router did not send a readable fas parameter." };
    const clientMac = mac(fields.get("clientmac") ?? null);
    if (!clientMac) return { ok: false, message: "The router sent a clientmac that is not a MAC address." };
    const hid = short(fields.get("hid") ?? null);
    const gatewayAddress = fields.get("gatewayaddress") ?? "";
    if (!hid || !/^[0-9a-f]+$/i.test(hid)) return { ok: false, message: "The router did not send a valid hid." };
    if (!GATEWAY_ADDRESS.test(gatewayAddress)) return { ok: false, message: "The router did not send a valid gatewayaddress." };
    const gatewayMac = fields.get("gatewaymac") ?? null;
    return {
      ok: true,
      entry: {
        apMac: mac(gatewayMac),
        clientMac,
        clientIp: ip(fields.get("clientip") ?? null),
        ssid: short(fields.get("gatewayname") ?? null),
        continueUrl: httpUrl(fields.get("originurl") ?? null),
        context: { hid, gatewayaddress: gatewayAddress },
      },
    };
  },
  // `seconds` and `limits` are not carried: FAS level 1 has no place for them (see the header).
  async grant({ network, context, successUrl }) {
    if (!network.openndsFaskey) throw new GatewayError("This network has no openNDS faskey set.");
    const tok = crypto
      .createHash("sha256")
      .update(context.hid! + network.openndsFaskey)
      .digest("hex");
    return `http://${context.gatewayaddress}/opennds_auth/?tok=${tok}&redir=${encodeURIComponent(successUrl)}`;
  },
  setup(origin, network) {
    const url = `${origin}/hotspot/opennds/${network.portalKey}`;
    const { uci, conf, https } = openndsSettings(origin, network);
    return {
      url,
      steps: [
        `OpenWrt: in /etc/config/opennds, section config opennds, set (then service opennds restart):\n${uci.join("\n")}`,
        `Debian and other Linux: in /etc/opennds/opennds.conf, besides GatewayInterface (the interface guests join), set (then systemctl restart opennds):\n${conf.join("\n")}`,
        `Replace ${FASKEY_PLACEHOLDER} with the faskey saved in this network's guest portal settings (no % in it: openNDS hashes it with the shell's printf).`,
        `So that closing and blocking in the console reach the router, save this agent as /usr/bin/mlango-opennds-agent (chmod +x; it needs ndsctl and curl or wget) and start it from /etc/rc.local with MLANGO_URL='${origin}' MLANGO_PORTAL_KEY='${network.portalKey}' MLANGO_SECRET='${GATEWAY_SECRET_PLACEHOLDER}' /usr/bin/mlango-opennds-agent & (the gateway secret saved below; it polls every 30 seconds):\n${OPENNDS_AGENT.trimEnd()}`,
        https
          ? `openNDS sends guests to the FAS over plain http (fas_secure_enabled 0 to 2; only level 3, which Mlango does not speak, uses https): this console's address is https, so also answer http://${new URL(origin).hostname}/hotspot/opennds/ on port 80 (a reverse proxy that forwards that path to Mlango without redirecting it to https, and no HSTS for that host).`
          : "openNDS sends guests to the FAS over plain http (fas_secure_enabled 0 to 2), so these steps use Mlango's http address.",
      ],
    };
  },
};
