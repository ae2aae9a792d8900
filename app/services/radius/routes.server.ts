// The RADIUS side of the guest path, mounted on the portal router (router.server.ts):
// - FreeRADIUS's rest calls: /radius/client, /radius/authorize, /radius/authenticate, /radius/accounting,
//   authenticated by RADIUS_API_SECRET (HTTP basic "freeradius", or ?key= where the rest module
//   sends the guest's own credentials as basic auth: authenticate);
// - the RADIUS makes' gateway entry by POST (a MikroTik login.html posts its variables);
// - the grant's auto-submitting login page, and the login.html an operator uploads to a MikroTik.
import express, { type NextFunction, type Request, type Response } from "express";
import { db } from "~/db/db.server";
import { getEnv } from "~/env.server";
import { hashToken, sameSecret } from "../crypto.server";
import { publicOrigin } from "../email.server";
import { gatewayFor } from "../portal/gateways/index.server";
import { httpUrl } from "../portal/gateways/params";
import { mikrotikLoginHtml } from "../portal/gateways/mikrotik.server";
import { enterFromGateway } from "../portal/entry.server";
import { networkByPortalKey } from "../portal/network.server";
import { plausibleToken } from "../portal/connect.server";
import { readAttributes } from "./attributes";
import { radiusRecord, applyRadiusAccounting } from "./accounting.server";
import { authenticateLogin, authorizeLogin } from "./authorize.server";
import { nasById, nasIdOf, nasShortname, radiusClientByAddress } from "./clients.server";
import { loginPage } from "~/guest/pages";
import { LOGIN_CSP, radiusPassword, radiusUsername } from "./login.server";

type Page = (res: Response, status: number, page: string, csp?: string) => void;
type MessagePage = (title: string, messages: string[], networkName?: string) => string;

const RADIUS_MAKES = new Set(["mikrotik", "cisco", "ruckus"]);
const BODY_LIMIT = "64kb";

/** FreeRADIUS proves itself with the shared secret; without one configured, RADIUS is off (503). */
function freeradiusOnly(req: Request, res: Response, next: NextFunction) {
  const secret = getEnv().RADIUS_API_SECRET;
  if (!secret) return res.status(503).json({ error: { message: "RADIUS is not configured on this server (RADIUS_API_SECRET)." } });
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(req.headers.authorization ?? "");
  const decoded = basic ? Buffer.from(basic[1]!, "base64").toString("utf8") : "";
  const viaBasic = decoded.startsWith("freeradius:") ? decoded.slice("freeradius:".length) : null;
  const viaKey = typeof req.query.key === "string" ? req.query.key : null;
  if (!(viaBasic !== null && sameSecret(viaBasic, secret)) && !(viaKey !== null && sameSecret(viaKey, secret)))
    return res
      .status(401)
      .set("WWW-Authenticate", 'Basic realm="radius"')
      .json({ error: { message: "Send the RADIUS API secret." } });
  next();
}

/** The NAS FreeRADIUS checked the packet of (?nas= is its client shortname, nas-{id}). */
async function nasOf(req: Request) {
  const id = nasIdOf(req.query.nas);
  return id === null ? null : nasById(id);
}

export function mountRadiusRoutes(
  router: express.Router,
  { sendPage, messagePage, form }: { sendPage: Page; messagePage: MessagePage; form: express.RequestHandler[] },
): void {
  const json = [express.json({ limit: BODY_LIMIT }), freeradiusOnly];

  // Dynamic clients: is this source address a registered NAS, and with which secret?
  router.post("/radius/client", freeradiusOnly, async (req, res) => {
    const ip = typeof req.query.ip === "string" ? req.query.ip : "";
    const client = ip ? await radiusClientByAddress(ip) : null;
    if (!client) return res.status(404).json({ error: { message: "Not a registered RADIUS gateway." } });
    res.json({
      "control:FreeRADIUS-Client-IP-Address": ip.includes(":") ? undefined : ip,
      "control:FreeRADIUS-Client-IPv6-Address": ip.includes(":") ? ip : undefined,
      "control:FreeRADIUS-Client-Secret": client.secret,
      "control:FreeRADIUS-Client-Shortname": nasShortname(client.id),
      "control:FreeRADIUS-Client-NAS-Type": "other",
      "control:FreeRADIUS-Client-Require-MA": "no",
    });
  });

  router.post("/radius/authorize", ...json, async (req, res) => {
    const nas = await nasOf(req);
    const attributes = readAttributes(req.body);
    if (!nas || !attributes)
      return res.status(400).json({ error: { message: nas ? "The body is not FreeRADIUS's attribute JSON." : "Unknown NAS." } });
    res.json(await authorizeLogin(nas, attributes));
  });

  router.post("/radius/authenticate", ...json, async (req, res) => {
    const nas = await nasOf(req);
    const attributes = readAttributes(req.body);
    if (!nas || !attributes) return res.status(400).json({ error: { message: "Bad request." } });
    if (await authenticateLogin(nas, attributes)) return res.status(204).end();
    res.status(401).json({ "reply:Reply-Message": "This login is not valid. Reconnect to WiFi for a new connection session." });
  });

  router.post("/radius/accounting", ...json, async (req, res) => {
    const nas = await nasOf(req);
    const attributes = readAttributes(req.body);
    if (!nas || !attributes)
      return res.status(400).json({ error: { message: nas ? "The body is not FreeRADIUS's attribute JSON." : "Unknown NAS." } });
    const record = radiusRecord(attributes);
    // A record Mlango cannot use is still acknowledged: the NAS would otherwise resend it for ever.
    if (typeof record === "string") {
      console.log(JSON.stringify({ at: new Date().toISOString(), event: "radius_accounting_invalid", nas: nas.id, message: record }));
      return res.status(204).end();
    }
    if (record && !(await applyRadiusAccounting(nas, record))) {
      console.log(JSON.stringify({ at: new Date().toISOString(), event: "accounting_unknown_session", nas: nas.id, by: "radius" }));
    }
    res.status(204).end();
  });

  // A MikroTik login.html posts the router's variables (Cisco and Ruckus may be set to POST too).
  router.post("/hotspot/:make/:portalKey", ...form, async (req, res, next) => {
    if (!RADIUS_MAKES.has(req.params.make!)) return next();
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, unknown>))
      if (typeof value === "string") query.set(name, value);
    const outcome = await enterFromGateway({
      make: req.params.make!,
      portalKey: req.params.portalKey!,
      rest: "",
      query,
      userAgent: req.headers["user-agent"] ?? null,
    });
    if (!outcome.ok) return sendPage(res, outcome.status, messagePage("We could not connect you", [outcome.message]));
    res.set({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });
    res.redirect(303, `/connect?token=${outcome.token}`);
  });

  router.get("/hotspot/mikrotik/:portalKey/login.html", async (req, res) => {
    const network = await networkByPortalKey(req.params.portalKey!);
    if (!network) return sendPage(res, 404, messagePage("Not found", ["This Wi-Fi network is not set up in Mlango."]));
    // A file for the router, not a page: should a browser open it from our origin anyway, it runs nothing.
    res.set({
      "Content-Disposition": 'attachment; filename="login.html"',
      "Content-Security-Policy": "default-src 'none'; sandbox; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    });
    res.type("html").send(mikrotikLoginHtml(`${publicOrigin()}/hotspot/mikrotik/${network.portalKey}`));
  });

  // The grant: the guest's browser posts the connection's one-time credentials to the gateway.
  router.get("/hotspot/:make/:portalKey/login", async (req, res, next) => {
    const adapter = RADIUS_MAKES.has(req.params.make!) ? gatewayFor(req.params.make!) : null;
    if (!adapter?.loginForm) return next();
    const token = typeof req.query.token === "string" ? req.query.token : "";
    const network = plausibleToken(token) ? await networkByPortalKey(req.params.portalKey!) : null;
    const row = network
      ? await db
          .selectFrom("connections")
          .select(["id", "token", "gateway", "gateway_context", "venue_id", "authorized_at", "ended_at"])
          .where("token", "=", hashToken(token))
          .where("organization_id", "=", network.organizationId)
          .executeTakeFirst()
      : undefined;
    const context = JSON.parse(row?.gateway_context ?? "{}") as Record<string, string>;
    if (!network || !row || row.gateway !== adapter.make || Number(context.network_id ?? row.venue_id) !== network.id) {
      return sendPage(
        res,
        404,
        messagePage("Get connected to WiFi", ["This connection link is not valid.", "Reconnect to WiFi for a new connection session"]),
      );
    }
    if (row.authorized_at === null || row.ended_at !== null) {
      return sendPage(
        res,
        409,
        messagePage(
          "Get connected to WiFi",
          ["This connection is not authorized (any more).", "Reconnect to WiFi for a new connection session"],
          network.name,
        ),
      );
    }
    const successUrl =
      httpUrl(typeof req.query.continue === "string" ? req.query.continue : null) ??
      `${publicOrigin()}/connect/online?token=${encodeURIComponent(token)}`;
    const form = adapter.loginForm(
      context,
      { username: radiusUsername(Number(row.id)), password: radiusPassword(Number(row.id), row.token!) },
      successUrl,
    );
    sendPage(res, 200, loginPage(form, network.name), LOGIN_CSP);
  });
}
