// Ubiquiti UniFi external portal: the controller sends the guest to
// /hotspot/unifi/{key}/guest/s/{site}/?ap=&id=&t=&url=&ssid=; granting is a server-side call to the
// controller (login, then stamgr authorize-guest), revoking is stamgr unauthorize-guest.
// Limits: authorize-guest takes `minutes` (the session's length), `up` and `down` (kbit/s) and
// `bytes` (the data allowance, in MB despite its name); each is sent only when the plan sets it, so
// an unlimited guest gets the hotspot's defaults. The data left is rounded up to whole MB (at least
// 1, as 0 would mean no limit): Mlango's own data check from accounting ends the session at the exact
// byte when accounting reaches it.
import { OutboundRefusedError, outboundFetch } from "../../outbound.server";
import { grantLimits, httpUrl, mac, param, short } from "./params";
import { GatewayError, type GatewayAdapter, type GatewayNetwork } from "./types";

const SITE = /^guest\/s\/([A-Za-z0-9_-]{1,64})\/?$/;
const TIMEOUT_MS = 5_000;
/** The controller's MB, as plans count it (~/lib/schemas/plans BYTES.MBs). */
const MB = 1024 ** 2;

/**
 * The controller's URL for an API path: the stored URL's own path is kept as a prefix (a controller
 * behind a reverse proxy), and a query or fragment in it cannot move the call elsewhere.
 */
export function controllerEndpoint(stored: string, path: string): URL {
  const url = new URL(stored);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${path}`;
  url.search = "";
  url.hash = "";
  return url;
}

async function controllerCall(network: GatewayNetwork, site: string, body: Record<string, unknown>): Promise<void> {
  const unifi = network.unifi;
  if (!unifi) throw new GatewayError("This network has no UniFi controller set.");
  // outboundFetch: the operator chose this address, so internal ones are refused and no redirect is followed.
  const post = (path: string, payload: unknown, cookie?: string) =>
    outboundFetch(controllerEndpoint(unifi.url, path), {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).then(async (res) => {
      await res.body?.cancel(); // only the status and the cookies are used
      return res;
    });
  const unreachable = (error: unknown) =>
    error instanceof OutboundRefusedError
      ? new GatewayError(`The UniFi controller was not called: ${error.message}`)
      : new GatewayError(`The UniFi controller could not be reached (${error instanceof Error ? error.name : "error"}).`);
  let login: Response;
  try {
    login = await post("/api/login", { username: unifi.username, password: unifi.password });
  } catch (error) {
    throw unreachable(error);
  }
  if (!login.ok) throw new GatewayError(`The UniFi controller refused the sign-in (HTTP ${login.status}).`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  let answer: Response;
  try {
    answer = await post(`/api/s/${encodeURIComponent(site)}/cmd/stamgr`, body, cookie);
  } catch (error) {
    throw unreachable(error);
  }
  if (!answer.ok) throw new GatewayError(`The UniFi controller refused ${String(body.cmd)} (HTTP ${answer.status}).`);
  void post("/api/logout", {}, cookie).catch(() => undefined);
}

export const unifi: GatewayAdapter = {
  make: "unifi",
  label: "Ubiquiti UniFi",
  revocation: "controller",
  parseEntry(query, rest) {
    const site = SITE.exec(rest)?.[1];
    if (!site) return { ok: false, message: "The controller's redirect does not name a site (…/guest/s/{site}/)." };
    const clientMac = mac(param(query, "id"));
    if (!clientMac) return { ok: false, message: "The controller did not send a valid id (the guest's MAC address)." };
    const apParam = param(query, "ap");
    const apMac = mac(apParam);
    if (apParam && !apMac) return { ok: false, message: "The controller sent an ap that is not a MAC address." };
    return {
      ok: true,
      entry: {
        apMac,
        clientMac,
        clientIp: null,
        ssid: short(param(query, "ssid")),
        continueUrl: httpUrl(param(query, "url")),
        context: { site },
      },
    };
  },
  async grant({ network, context, clientMac, apMac, successUrl, seconds, limits }) {
    const { upKbps, downKbps, bytes } = grantLimits(limits);
    await controllerCall(network, context.site!, {
      cmd: "authorize-guest",
      mac: clientMac,
      minutes: Math.max(1, Math.ceil(seconds / 60)),
      ...(upKbps !== null ? { up: upKbps } : {}),
      ...(downKbps !== null ? { down: downKbps } : {}),
      ...(bytes !== null ? { bytes: Math.max(1, Math.ceil(bytes / MB)) } : {}),
      ...(apMac ? { ap_mac: apMac } : {}),
    });
    return successUrl;
  },
  async revoke({ network, context, clientMac }) {
    await controllerCall(network, context.site!, { cmd: "unauthorize-guest", mac: clientMac });
  },
  setup(origin, { portalKey }) {
    return {
      url: `${origin}/hotspot/unifi/${portalKey}`,
      steps: [
        "Fill in the controller's URL, a local admin's username and password below (Mlango calls the controller to let guests through).",
        "In the UniFi Network application open Settings → Profiles → Hotspot (Guest portal), choose External portal server and enter this console's address; UniFi appends /guest/s/{site}/ itself. Point that address at the URL above (a reverse proxy rule or DNS name for this network).",
        `Allow this console's host (${new URL(origin).host}) in the pre-authorization access list.`,
      ],
    };
  },
};
