import type { GatewayMake } from "~/db/schema";
import { meraki } from "./meraki.server";
import { mlango } from "./mlango.server";
import { opennds } from "./opennds.server";
import type { GatewayAdapter } from "./types";
import { unifi } from "./unifi.server";

export const GATEWAYS: Record<GatewayMake, GatewayAdapter> = { meraki, opennds, unifi, mlango };

export function gatewayFor(make: string): GatewayAdapter | null {
  return Object.hasOwn(GATEWAYS, make) ? GATEWAYS[make as GatewayMake] : null;
}

export { GatewayError, type GatewayAdapter, type GatewayNetwork } from "./types";
