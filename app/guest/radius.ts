// The RADIUS side of the guest path:
// - FreeRADIUS's rest calls: /radius/client, /radius/authorize, /radius/authenticate, /radius/accounting,
//   authenticated by RADIUS_API_SECRET (HTTP basic "freeradius", or ?key= where the rest module
//   sends the guest's own credentials as basic auth: authenticate);
// - the grant's auto-submitting login page, and the login.html an operator uploads to a MikroTik.
// The RADIUS makes' gateway entry by POST is in entry.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import { getEnv } from "~/env.server";
import { sameSecret } from "~/services/crypto.server";
import { publicOrigin } from "~/services/email.server";
import { gatewayFor } from "~/services/portal/gateways/index.server";
import { httpUrl } from "~/services/portal/gateways/params";
import { mikrotikLoginHtml } from "~/services/portal/gateways/mikrotik.server";
import { CONNECT_MESSAGES, plausibleToken } from "~/services/portal/connect.server";
import { networkByPortalKey } from "~/services/portal/network.server";
import { connectionForLogin } from "~/services/radius/grant.server";
import { readAttributes } from "~/services/radius/attributes";
import { radiusRecord, applyRadiusAccounting } from "~/services/radius/accounting.server";
import { authenticateLogin, authorizeLogin, RADIUS_MESSAGES, type RadiusReply } from "~/services/radius/authorize.server";
import { nasById, nasIdOf, nasShortname, radiusClientByAddress, type Nas } from "~/services/radius/clients.server";
import { LOGIN_CSP, radiusPassword, radiusUsername } from "~/services/radius/login.server";
import { loginPage, messagePage, plainLook } from "./pages";
import { sendJson, sendPage, sendText, text, type GuestHandler, type GuestInput } from "./http";
import { isGuestLanguage, say, speechFor, withLang } from "./i18n";

/** FreeRADIUS proves itself with the shared secret; without one configured, RADIUS is off (503). */
function freeradiusOnly(handler: GuestHandler): GuestHandler {
  return (req, res, input) => {
    const secret = getEnv().RADIUS_API_SECRET;
    if (!secret) return sendJson(res, 503, { error: { message: "RADIUS is not configured on this server (RADIUS_API_SECRET)." } });
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(req.headers.authorization ?? "");
    const decoded = basic ? Buffer.from(basic[1]!, "base64").toString("utf8") : "";
    const viaBasic = decoded.startsWith("freeradius:") ? decoded.slice("freeradius:".length) : null;
    const viaKey = text(input.query.key);
    if (!(viaBasic !== null && sameSecret(viaBasic, secret)) && !(viaKey !== null && sameSecret(viaKey, secret)))
      return sendJson(res, 401, { error: { message: "Send the RADIUS API secret." } }, { "WWW-Authenticate": 'Basic realm="radius"' });
    return handler(req, res, input);
  };
}

/** The NAS FreeRADIUS checked the packet of (?nas= is its client shortname, nas-{id}). */
async function nasOf({ query }: GuestInput) {
  const id = nasIdOf(query.nas);
  return id === null ? null : nasById(id);
}

/** POST /radius/client?ip=…: dynamic clients — is this source address a registered NAS, and with which secret? */
export const radiusClient = freeradiusOnly(async (_req, res, { query }) => {
  const ip = text(query.ip) ?? "";
  const client = ip ? await radiusClientByAddress(ip) : null;
  if (!client) return sendJson(res, 404, { error: { message: "Not a registered RADIUS gateway." } });
  sendJson(res, 200, {
    "control:FreeRADIUS-Client-IP-Address": ip.includes(":") ? undefined : ip,
    "control:FreeRADIUS-Client-IPv6-Address": ip.includes(":") ? ip : undefined,
    "control:FreeRADIUS-Client-Secret": client.secret,
    "control:FreeRADIUS-Client-Shortname": nasShortname(client.id),
    "control:FreeRADIUS-Client-NAS-Type": "other",
    "control:FreeRADIUS-Client-Require-MA": "no",
  });
});

/**
 * A Reply-Message (the gateway shows it to the guest, e.g. MikroTik's $(error)) in the network's
 * language: no guest's browser takes part in a RADIUS exchange, so the operator's default decides.
 */
function inNetworkLanguage(nas: Nas, reply: RadiusReply): RadiusReply {
  const message = reply["reply:Reply-Message"];
  if (typeof message !== "string" || !isGuestLanguage(nas.language)) return reply;
  return { ...reply, "reply:Reply-Message": say(nas.language, message) };
}

export const radiusAuthorize = freeradiusOnly(async (_req, res, input) => {
  const nas = await nasOf(input);
  const attributes = readAttributes(input.body);
  if (!nas || !attributes)
    return sendJson(res, 400, { error: { message: nas ? "The body is not FreeRADIUS's attribute JSON." : "Unknown NAS." } });
  sendJson(res, 200, inNetworkLanguage(nas, await authorizeLogin(nas, attributes)));
});

const noContent = (res: ServerResponse) => {
  res.writeHead(204);
  res.end();
};

export const radiusAuthenticate = freeradiusOnly(async (_req, res, input) => {
  const nas = await nasOf(input);
  const attributes = readAttributes(input.body);
  if (!nas || !attributes) return sendJson(res, 400, { error: { message: "Bad request." } });
  if (await authenticateLogin(nas, attributes)) return noContent(res);
  sendJson(res, 401, inNetworkLanguage(nas, { "reply:Reply-Message": RADIUS_MESSAGES.invalid }));
});

export const radiusAccounting = freeradiusOnly(async (_req, res, input) => {
  const nas = await nasOf(input);
  const attributes = readAttributes(input.body);
  if (!nas || !attributes)
    return sendJson(res, 400, { error: { message: nas ? "The body is not FreeRADIUS's attribute JSON." : "Unknown NAS." } });
  const record = radiusRecord(attributes);
  // A record Mlango cannot use is still acknowledged: the NAS would otherwise resend it for ever.
  if (typeof record === "string") {
    console.log(JSON.stringify({ at: new Date().toISOString(), event: "radius_accounting_invalid", nas: nas.id, message: record }));
    return noContent(res);
  }
  if (record && !(await applyRadiusAccounting(nas, record))) {
    console.log(JSON.stringify({ at: new Date().toISOString(), event: "accounting_unknown_session", nas: nas.id, by: "radius" }));
  }
  noContent(res);
});

/** GET /hotspot/mikrotik/{portalKey}/login.html: the file an operator uploads to the router. */
export async function mikrotikLoginFile(req: IncomingMessage, res: ServerResponse, { params }: GuestInput): Promise<void> {
  const network = await networkByPortalKey(params.portalKey!);
  if (!network) {
    const speech = speechFor(req, null);
    return sendPage(res, 404, messagePage(speech.t.pages.notFound, [speech.t.pages.networkUnknown], undefined, plainLook(speech)));
  }
  // A file for the router, not a page: should a browser open it from our origin anyway, it runs nothing.
  sendText(res, 200, "text/html; charset=utf-8", mikrotikLoginHtml(`${publicOrigin()}/hotspot/mikrotik/${network.portalKey}`), {
    "Content-Disposition": 'attachment; filename="login.html"',
    "Content-Security-Policy": "default-src 'none'; sandbox; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
  });
}

/** The grant of a RADIUS make: the guest's browser posts the connection's one-time credentials to the gateway. */
export async function radiusLoginPage(
  make: string,
  req: IncomingMessage,
  res: ServerResponse,
  { params, query }: GuestInput,
): Promise<void> {
  const adapter = gatewayFor(make);
  const token = text(query.token) ?? "";
  const network = plausibleToken(token) ? await networkByPortalKey(params.portalKey!) : null;
  const speech = speechFor(req, network?.language, query);
  const t = speech.t;
  const row = network ? await connectionForLogin(token, network.organizationId) : undefined;
  const context = JSON.parse(row?.gateway_context ?? "{}") as Record<string, string>;
  if (
    !adapter?.loginForm ||
    !network ||
    !row ||
    row.gateway !== adapter.make ||
    Number(context.network_id ?? row.venue_id) !== network.id
  ) {
    return sendPage(
      res,
      404,
      messagePage(t.connect.title, [CONNECT_MESSAGES.unknown, CONNECT_MESSAGES.reconnect], undefined, plainLook(speech)),
    );
  }
  if (row.authorized_at === null || row.ended_at !== null) {
    return sendPage(
      res,
      409,
      messagePage(t.connect.title, [t.pages.notAuthorized, CONNECT_MESSAGES.reconnect], network.name, plainLook(speech)),
    );
  }
  const successUrl =
    httpUrl(text(query.continue)) ?? withLang(`${publicOrigin()}/connect/online?token=${encodeURIComponent(token)}`, speech.carried);
  const form = adapter.loginForm(
    context,
    { username: radiusUsername(Number(row.id)), password: radiusPassword(Number(row.id), row.token!) },
    successUrl,
  );
  sendPage(res, 200, loginPage(form, network.name), LOGIN_CSP);
}
