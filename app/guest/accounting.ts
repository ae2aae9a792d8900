// Gateways report usage and poll closed connections, authenticated by the network's gateway secret:
//   POST /hotspot/accounting                          one record or a batch (accounting.server.ts)
//   GET  /hotspot/mlango/{portalKey}/revocations      Mlango's own make: the connections closed in the console
import type { IncomingMessage, ServerResponse } from "node:http";
import { recordAccounting, revocationsSince } from "~/services/portal/accounting.server";
import { bearerToken, networkByGatewaySecret } from "~/services/portal/network.server";
import { sendJson, text, type GuestInput } from "./http";

const unauthorized = (res: ServerResponse) =>
  sendJson(res, 401, { error: { message: "Send the network's gateway secret as a bearer token." } }, { "WWW-Authenticate": "Bearer" });

const networkOf = async (req: IncomingMessage) => {
  const secret = bearerToken(req.headers.authorization);
  return secret ? await networkByGatewaySecret(secret) : null;
};

export async function acceptAccounting(req: IncomingMessage, res: ServerResponse, { body }: GuestInput): Promise<void> {
  const network = await networkOf(req);
  if (!network) return unauthorized(res);
  const outcome = await recordAccounting(network, body);
  sendJson(res, outcome.ok ? 200 : 422, outcome.ok ? { data: outcome.data } : { error: { message: outcome.message } });
}

export async function listRevocations(req: IncomingMessage, res: ServerResponse, { params, query }: GuestInput): Promise<void> {
  const network = await networkOf(req);
  if (!network || network.portalKey !== params.portalKey) return unauthorized(res);
  const after = Number(text(query.after) ?? 0);
  sendJson(
    res,
    200,
    { data: await revocationsSince(network, Number.isSafeInteger(after) && after > 0 ? after : 0) },
    { "Cache-Control": "no-store" },
  );
}
