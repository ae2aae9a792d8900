// The Captive Portal API (RFC 8908), announced by the gateway with DHCP option 114 (RFC 8910):
//   GET /captive/{portalKey}?token=…    captive or not, the user portal and the time left
//   GET /captive/{portalKey}/venue      the venue-info page
import type { IncomingMessage, ServerResponse } from "node:http";
import { publicOrigin } from "~/services/email.server";
import { captiveStatus } from "~/services/portal/captive.server";
import { loadGuestView, plausibleToken } from "~/services/portal/connect.server";
import { networkByPortalKey } from "~/services/portal/network.server";
import { messagePage } from "./pages";
import { sendPage, sendText, text, type GuestInput } from "./http";

const CAPTIVE_JSON = "application/captive+json";

export async function captiveApi(_req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const headers = { "Cache-Control": "private, no-store" };
  const network = await networkByPortalKey(params.portalKey!);
  if (!network) return sendText(res, 404, CAPTIVE_JSON, JSON.stringify({ captive: true }), headers);
  const asked = text(query.token);
  const token = asked !== null && plausibleToken(asked) ? asked : null;
  const view = token ? await loadGuestView(token, { plans: false }) : null;
  const status = view && view.network.id === network.id ? await captiveStatus(view.connectionId) : null;
  const body: Record<string, unknown> = {
    captive: !status?.online,
    "venue-info-url": `${publicOrigin()}/captive/${network.portalKey}/venue`,
  };
  if (token && view?.state === "form") body["user-portal-url"] = `${publicOrigin()}/connect?token=${token}`;
  if (status?.online) {
    body["seconds-remaining"] = Math.max(0, Math.floor((status.sessionExpiresAt - Date.now()) / 1000));
    body["can-extend-session"] = false;
  }
  sendText(res, 200, CAPTIVE_JSON, JSON.stringify(body), headers);
}

export async function venueInfo(_req: IncomingMessage, res: ServerResponse, { params }: GuestInput): Promise<void> {
  const network = await networkByPortalKey(params.portalKey!);
  if (!network) return sendPage(res, 404, messagePage("Not found", ["This Wi-Fi network is not set up in Mlango."]));
  sendPage(res, 200, messagePage(network.name, [`Guest Wi-Fi by ${network.organizationName}.`]));
}
