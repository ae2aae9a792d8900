import type { GatewayMake } from "~/db/schema";
import { cisco } from "./cisco.server";
import { meraki } from "./meraki.server";
import { mikrotik } from "./mikrotik.server";
import { mlango } from "./mlango.server";
import { opennds } from "./opennds.server";
import { ruckus } from "./ruckus.server";
import type { GatewayAdapter } from "./types";
import { unifi } from "./unifi.server";

export const GATEWAYS: Record<GatewayMake, GatewayAdapter> = { meraki, opennds, unifi, mlango, mikrotik, cisco, ruckus };

export function gatewayFor(make: string): GatewayAdapter | null {
  return Object.hasOwn(GATEWAYS, make) ? GATEWAYS[make as GatewayMake] : null;
}

/** Whether a connection's make vouches for its client MAC (a connection without a gateway has no MAC to doubt). */
export function identifiesDevice(make: string | null): boolean {
  return make === null || (gatewayFor(make)?.identifiesDevice ?? false);
}

export { GatewayError, type GatewayAdapter, type GatewayNetwork } from "./types";
