// What the RADIUS makes (MikroTik, Cisco WLC, Ruckus) share behind the gateway interface: the grant
// is Mlango's own page posting one-time credentials to the gateway's login address (the gateway then
// asks FreeRADIUS, which asks Mlango: authorize.server.ts), and revoking is a RADIUS
// Disconnect-Message to the NAS that accepted the login (coa.server.ts).
import type { RadiusMake } from "~/db/schema";
import { publicOrigin } from "../email.server";
import type { GatewayAdapter } from "../portal/gateways/types";
import { disconnectConnection } from "./coa.server";

type Spec = Pick<GatewayAdapter, "label" | "parseEntry" | "setup"> & {
  make: RadiusMake;
  loginForm: NonNullable<GatewayAdapter["loginForm"]>;
};

/** Where the grant sends the guest: the auto-submitting login page. */
export function loginPagePath(make: RadiusMake, portalKey: string, token: string, successUrl: string): string {
  return `/hotspot/${make}/${portalKey}/login?token=${encodeURIComponent(token)}&continue=${encodeURIComponent(successUrl)}`;
}

export function radiusGateway(spec: Spec): GatewayAdapter {
  return {
    ...spec,
    revocation: "controller",
    identifiesDevice: true,
    async grant({ network, token, successUrl }) {
      return `${publicOrigin()}${loginPagePath(spec.make, network.portalKey, token, successUrl)}`;
    },
    async revoke({ connectionId }) {
      await disconnectConnection(connectionId);
    },
  };
}

/** The steps every RADIUS make shares: the NAS registered in Mlango, FreeRADIUS's address. */
export function registerSteps(origin: string): string[] {
  return [
    "Open this network's RADIUS page (RADIUS gateways) and add the gateway: its address as FreeRADIUS sees it, and its make. Copy the RADIUS secret it shows once.",
    `Point the gateway's RADIUS authentication (port 1812) and accounting (port 1813) at your FreeRADIUS server with that secret, and allow Disconnect/CoA from it on port 3799. FreeRADIUS talks to Mlango at ${origin}/radius (docs/radius.md).`,
  ];
}
