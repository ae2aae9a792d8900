// Disconnect-Messages and CoA-Requests (RFC 5176) from Mlango to a NAS, with the `radius` package:
// closing a connection in the console or a plan running out disconnects the guest (through the
// gateway.revoke job, retried while the NAS does not answer); a plan's new speed is pushed with CoA.
// Every answer is kept in radius_messages for the network's RADIUS page.
import dgram from "node:dgram";
import path from "node:path";
import radius from "radius";
import { db } from "~/db/db.server";
import { callingStationId, mikrotikRate } from "./attributes";
import { GatewayError } from "../portal/gateways/types";
import { readSecret } from "../secrets.server";
import { radiusUsername } from "./login.server";

let dictionaryLoaded = false;
function loadDictionary() {
  if (dictionaryLoaded) return;
  radius.add_dictionary(path.resolve("radius/dictionary.mlango"));
  dictionaryLoaded = true;
}

/** How long a NAS has to answer, per try, and how many tries (the job retries later too). */
export const COA_TIMEOUT_MS = 1500;
const COA_TRIES = 2;

export type CoaOutcome = { outcome: "ACK" } | { outcome: "NAK"; detail: string } | { outcome: "timeout"; detail: string };

/** Sends one request to host:port and waits for its verified answer. */
export async function sendCoa(
  target: { host: string; port: number; secret: string },
  code: "Disconnect-Request" | "CoA-Request",
  attributes: unknown[][],
): Promise<CoaOutcome> {
  loadDictionary();
  const identifier = Math.floor(Math.random() * 256);
  const packet = radius.encode({ code, secret: target.secret, identifier, attributes });
  const socket = dgram.createSocket(target.host.includes(":") ? "udp6" : "udp4");
  try {
    for (let attempt = 0; attempt < COA_TRIES; attempt++) {
      const answer = await new Promise<Buffer | null>((resolve) => {
        const timer = setTimeout(() => done(null), COA_TIMEOUT_MS);
        const onMessage = (message: Buffer) => {
          if (
            message.length >= 20 &&
            message[1] === identifier &&
            radius.verify_response({ response: message, request: packet, secret: target.secret })
          )
            done(message);
        };
        const done = (value: Buffer | null) => {
          clearTimeout(timer);
          socket.off("message", onMessage);
          resolve(value);
        };
        socket.on("message", onMessage);
        socket.send(packet, target.port, target.host, (error) => error && done(null));
      });
      if (!answer) continue;
      const decoded = radius.decode({ packet: answer, secret: target.secret });
      if (decoded.code.endsWith("-ACK")) return { outcome: "ACK" };
      const cause = decoded.attributes["Error-Cause"];
      return { outcome: "NAK", detail: cause ? String(cause) : "no Error-Cause" };
    }
    return { outcome: "timeout", detail: `no answer from ${target.host}:${target.port}` };
  } finally {
    socket.close();
  }
}

/**
 * One message to the NAS that accepted (or last accounted) the connection's login, with `extra`
 * attributes; the answer is kept. The session is named by its session identification attributes
 * (RFC 5176 §3): User-Name, and, as the NAS sent them in accounting, Acct-Session-Id and
 * Framed-IP-Address, with Calling-Station-Id in the make's own form — RouterOS finds a hotspot
 * session by these (RouterOS manual, RADIUS → Connection Terminating from RADIUS, `/radius
 * incoming`). A NAS that does not answer throws GatewayError (the job retries). Null when no NAS
 * accepted the login (nothing to tell).
 */
async function tellNas(connectionId: number, kind: "Disconnect" | "CoA", extra: unknown[][] = []): Promise<CoaOutcome | null> {
  const row = await db
    .selectFrom("connections")
    .innerJoin("radius_clients", "radius_clients.id", "connections.radius_client_id")
    .leftJoin("devices", "devices.id", "connections.device_id")
    .select([
      "connections.id",
      "connections.organization_id",
      "radius_clients.id as nas_id",
      "radius_clients.ip_address",
      "radius_clients.coa_port",
      "radius_clients.secret",
      "radius_clients.make",
      "connections.nas_session_id",
      "connections.framed_ip",
      "devices.mac_address",
    ])
    .where("connections.id", "=", connectionId)
    .whereRef("radius_clients.organization_id", "=", "connections.organization_id")
    .executeTakeFirst();
  if (!row) return null;
  const attributes: unknown[][] = [["User-Name", radiusUsername(Number(row.id))]];
  if (row.nas_session_id) attributes.push(["Acct-Session-Id", row.nas_session_id]);
  if (row.framed_ip) attributes.push(["Framed-IP-Address", row.framed_ip]);
  if (row.mac_address) attributes.push(["Calling-Station-Id", callingStationId(row.make, row.mac_address)]);
  attributes.push(...extra);
  const code = kind === "Disconnect" ? "Disconnect-Request" : "CoA-Request";
  const result = await sendCoa({ host: row.ip_address, port: Number(row.coa_port), secret: readSecret(row.secret)! }, code, attributes);
  await db
    .insertInto("radius_messages")
    .values({
      organization_id: row.organization_id,
      radius_client_id: row.nas_id,
      connection_id: Number(row.id),
      kind,
      outcome: result.outcome,
      detail: "detail" in result ? result.detail : null,
      created_at: Date.now(),
    })
    .execute();
  if (result.outcome === "timeout") throw new GatewayError(result.detail);
  return result;
}

/**
 * Disconnects the guest of a connection at the NAS that accepted its login. A NAK is kept and final
 * (Session-Context-Not-Found: the guest is gone already).
 */
export function disconnectConnection(connectionId: number): Promise<CoaOutcome | null> {
  return tellNas(connectionId, "Disconnect");
}

/** Pushes a new speed to the guest of a connection (CoA), e.g. when its plan's bandwidth policy changed. */
export function changeSpeed(connectionId: number, speed: { upKbps: number | null; downKbps: number | null }): Promise<CoaOutcome | null> {
  const extra: unknown[][] = [];
  const rate = mikrotikRate(speed);
  if (rate) extra.push(["Vendor-Specific", 14988, [["Mikrotik-Rate-Limit", rate]]]);
  const wispr: [string, unknown][] = [];
  if (speed.upKbps !== null) wispr.push(["WISPr-Bandwidth-Max-Up", speed.upKbps * 1000]);
  if (speed.downKbps !== null) wispr.push(["WISPr-Bandwidth-Max-Down", speed.downKbps * 1000]);
  if (wispr.length) extra.push(["Vendor-Specific", 14122, wispr]);
  return tellNas(connectionId, "CoA", extra);
}
