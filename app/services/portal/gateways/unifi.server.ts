// Ubiquiti UniFi external portal: the controller sends the guest to
// /hotspot/unifi/{key}/guest/s/{site}/?ap=&id=&t=&url=&ssid= (or, as controllers are really set up,
// to /guest/s/{site}/… on the portal's host, the network found from the access point's MAC:
// enterFromUnifiSite in entry.server.ts); granting is a server-side call to
// the controller (login, then stamgr authorize-guest), revoking is stamgr unauthorize-guest.
// Limits: authorize-guest takes `minutes` (the session's length), `up` and `down` (kbit/s) and
// `bytes` (the data allowance, in MB despite its name); each is sent only when the plan sets it, so
// an unlimited guest gets the hotspot's defaults. The data left is rounded up to whole MB (at least
// 1, as 0 would mean no limit): Mlango's own data check from accounting ends the session at the exact
// byte when accounting reaches it.
//
// The controller API as the community documents it (ubntwiki, "UniFi Controller API"):
// - two kinds of controller. A classic one (the Network application on its own) signs in at
//   POST /api/login and serves /api/s/{site}/…; a UniFi OS console (UDM, Cloud Key Gen2+, UniFi OS
//   Server; "UDM Pro API" section) signs in at POST /api/auth/login, answers an X-CSRF-Token header
//   that every write sends back, and serves the network API under /proxy/network. Which one a
//   controller is, is asked once per network and process as the community's clients do
//   (Art-of-WiFi UniFi-API-client, check_unifi_os): GET / answers 200 on UniFi OS, a redirect on a
//   classic controller.
// - a network API answer says whether it worked in its envelope, {"meta": {"rc": "ok" | "error",
//   "msg"}}: a 200 with rc "error" is a refusal, with its msg.
// - a controller with its default self-signed certificate is called only if its SHA-256 is the one
//   the operator pinned (outboundFetch's pinnedCertificate; settings.server.ts asks the question).
import { OutboundRefusedError, outboundFetch, UntrustedCertificateError } from "../../outbound.server";
import { grantLimits, httpUrl, mac, param, short } from "./params";
import { GatewayError, type GatewayAdapter, type GatewayNetwork } from "./types";

const SITE = /^guest\/s\/([A-Za-z0-9_-]{1,64})\/?$/;
const TIMEOUT_MS = 5_000;
/** The controller's MB, as plans count it (~/lib/schemas/plans BYTES.MBs). */
const MB = 1024 ** 2;

export type ControllerKind = "unifi-os" | "classic";
type Controller = NonNullable<GatewayNetwork["unifi"]>;

/** The kind of each network's controller, asked once per process (keyed by its URL too: a new URL asks again). */
const kinds = new Map<number, { url: string; kind: ControllerKind }>();

/** Forgets what was learnt about controllers (tests, and a controller replaced by another kind). */
export function forgetControllerKinds(): void {
  kinds.clear();
}

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

function unreachable(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof OutboundRefusedError) return new GatewayError(`The UniFi controller was not called: ${error.message}`);
  if (error instanceof UntrustedCertificateError) {
    return new GatewayError(
      `The UniFi controller's certificate is not trusted (${error.reason}): test the connection in the network's settings to trust it.`,
    );
  }
  return new GatewayError(`The UniFi controller could not be reached (${error instanceof Error ? error.name : "error"}).`);
}

/** One call to the controller; outboundFetch: the operator chose this address, so internal ones are refused and no redirect is followed. */
function request(controller: Controller, path: string, init: { method: "GET" | "POST"; body?: unknown; headers?: Record<string, string> }) {
  return outboundFetch(controllerEndpoint(controller.url, path), {
    method: init.method,
    headers: { ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
    pinnedCertificate: controller.fingerprint,
  });
}

/** The network API's envelope: rc "ok" or the controller's msg (api.err.…), whatever the HTTP status. */
async function envelope(res: Response): Promise<{ ok: true } | { ok: false; msg: string }> {
  const text = await res.text().catch(() => "");
  let meta: { rc?: unknown; msg?: unknown } | undefined;
  try {
    meta = (JSON.parse(text) as { meta?: typeof meta }).meta;
  } catch {
    meta = undefined;
  }
  if (meta?.rc === "ok") return { ok: true };
  const msg = typeof meta?.msg === "string" ? meta.msg.slice(0, 120) : "no answer in the controller's format";
  return { ok: false, msg: `${msg}, HTTP ${res.status}` };
}

/** Which kind the controller is: asked with GET / once per network and process. */
export async function controllerKind(networkId: number, controller: Controller): Promise<ControllerKind> {
  const known = kinds.get(networkId);
  if (known && known.url === controller.url) return known.kind;
  const res = await request(controller, "/", { method: "GET" });
  await res.body?.cancel();
  const kind: ControllerKind = res.status === 200 ? "unifi-os" : "classic";
  kinds.set(networkId, { url: controller.url, kind });
  return kind;
}

interface Session {
  kind: ControllerKind;
  /** the network API's path prefix */
  prefix: string;
  headers: Record<string, string>;
}

async function signIn(networkId: number, controller: Controller): Promise<Session> {
  const kind = await controllerKind(networkId, controller);
  const credentials = { username: controller.username, password: controller.password };
  const res = await request(controller, kind === "unifi-os" ? "/api/auth/login" : "/api/login", { method: "POST", body: credentials });
  if (res.status === 404) kinds.delete(networkId); // not the kind it was: ask again next time
  // UniFi OS answers its sign-in with the admin's record, not the network API's envelope.
  const answer =
    kind === "unifi-os"
      ? (await res.body?.cancel(), res.ok ? { ok: true as const } : { ok: false as const, msg: `HTTP ${res.status}` })
      : await envelope(res);
  if (!answer.ok) throw new GatewayError(`The UniFi controller refused the sign-in (${answer.msg}).`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = res.headers.get("x-csrf-token");
  return {
    kind,
    prefix: kind === "unifi-os" ? "/proxy/network" : "",
    headers: { Cookie: cookie, ...(csrf ? { "X-CSRF-Token": csrf } : {}) },
  };
}

function signOut(controller: Controller, session: Session): void {
  void request(controller, session.kind === "unifi-os" ? "/api/auth/logout" : "/api/logout", {
    method: "POST",
    body: {},
    headers: session.headers,
  })
    .then((res) => res.body?.cancel())
    .catch(() => undefined);
}

async function controllerCall(network: GatewayNetwork, site: string, body: Record<string, unknown>): Promise<void> {
  const controller = network.unifi;
  if (!controller) throw new GatewayError("This network has no UniFi controller set.");
  try {
    const session = await signIn(network.id, controller);
    try {
      const res = await request(controller, `${session.prefix}/api/s/${encodeURIComponent(site)}/cmd/stamgr`, {
        method: "POST",
        body,
        headers: session.headers,
      });
      const answer = await envelope(res);
      if (!answer.ok) throw new GatewayError(`The UniFi controller refused ${String(body.cmd)} (${answer.msg}).`);
    } finally {
      signOut(controller, session);
    }
  } catch (error) {
    throw unreachable(error);
  }
}

export type ControllerTest =
  { ok: true; kind: ControllerKind } | { ok: false; untrusted: { fingerprint: string; reason: string } } | { ok: false; message: string };

/**
 * "Test connection": which kind the controller is, whether Mlango can sign in and use its network
 * API. A certificate that is neither CA-signed for the host nor the pinned one comes back with its
 * fingerprint, for the operator to decide whether to trust it.
 */
export async function testController(networkId: number, controller: Controller): Promise<ControllerTest> {
  kinds.delete(networkId);
  try {
    const session = await signIn(networkId, controller);
    try {
      const answer = await envelope(await request(controller, `${session.prefix}/api/self`, { method: "GET", headers: session.headers }));
      if (!answer.ok) return { ok: false, message: `The UniFi controller signed Mlango in but refused its network API (${answer.msg}).` };
      return { ok: true, kind: session.kind };
    } finally {
      signOut(controller, session);
    }
  } catch (error) {
    if (error instanceof UntrustedCertificateError)
      return { ok: false, untrusted: { fingerprint: error.fingerprint, reason: error.reason } };
    return { ok: false, message: unreachable(error).message };
  }
}

export const unifi: GatewayAdapter = {
  make: "unifi",
  label: "Ubiquiti UniFi",
  revocation: "controller",
  identifiesDevice: false,
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
        `In the UniFi Network application open Settings → Profiles → Hotspot (Guest portal), choose External portal server and enter this console's host (${new URL(origin).hostname}); the controller sends guests to http://${new URL(origin).hostname}/guest/s/{site}/ and Mlango finds this network from the access point the guest is on.`,
        "Register every access point of this network below (Access points → Add, make Ubiquiti UniFi, its MAC address): an access point Mlango does not know, or one that another organisation registered too, is refused with a page saying so.",
        "Prefer a portal address of this network's own? Point the external portal at the URL above instead (a reverse proxy rule or DNS name); UniFi appends /guest/s/{site}/ to it.",
        `Allow this console's host (${new URL(origin).host}) in the pre-authorization access list.`,
      ],
    };
  },
};
