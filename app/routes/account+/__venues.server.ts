// Networks and access points as the account API answers them
// (docs/guide/networks.md#network-form, docs/guide/access-points.md#access-point-form), shared by
// the venues and access_points routes. Times are ISO strings.
import { storedPolygons } from "~/lib/layout";
import type { AccessPointCounts } from "~/services/access-points.server";
import type { Permission } from "~/lib/permissions";
import { apiValidationFailed, isoTime, readApiBody, requireApiOrg, requireApiUser, type ApiBody } from "~/services/api.server";
import type { OrgContext } from "~/services/guard.server";
import type { VenueCounts } from "~/services/venues.server";

interface VenueRow {
  id: number;
  name: string;
  address: string;
  email: string | null;
  phone_number: string | null;
  custom_splash_url: string | null;
  success_url: string | null;
  more_info: string | null;
  layout_image: string | null;
  layout_polygon: string | null;
  map_zoom: number | null;
  lat: number | null;
  lng: number | null;
  created_at: number;
  updated_at: number;
}

export function venueJson(organizationId: number, v: VenueRow, counts?: VenueCounts) {
  return {
    id: v.id,
    organization_id: organizationId,
    name: v.name,
    address: v.address,
    email: v.email,
    phone_number: v.phone_number,
    custom_splash_url: v.custom_splash_url,
    success_url: v.success_url,
    more_info: v.more_info,
    layout_image: v.layout_image,
    layout_polygon: storedPolygons(v.layout_polygon),
    map_zoom: v.map_zoom,
    lat: v.lat,
    lng: v.lng,
    created_at: isoTime(v.created_at),
    updated_at: isoTime(v.updated_at),
    ...(counts
      ? {
          accessPointsCount: counts.accessPointsCount,
          customersCount: counts.customersCount,
          connectionsCount: counts.connectionsCount,
          onlineConnectionsCount: counts.onlineConnectionsCount,
        }
      : {}),
  };
}

interface AccessPointRow {
  id: number;
  name: string;
  make: string;
  mac_address: string;
  serial_number: string;
  custom_splash_url: string | null;
  success_url: string | null;
  description: string | null;
  venue_id: number;
  venue_name: string;
  lat: number | null;
  lng: number | null;
  layout_x: number | null;
  layout_y: number | null;
  created_at: number;
  updated_at: number;
}

export function accessPointJson(ap: AccessPointRow, counts?: AccessPointCounts) {
  return {
    id: ap.id,
    name: ap.name,
    make: ap.make,
    mac_address: ap.mac_address,
    serial_number: ap.serial_number,
    custom_splash_url: ap.custom_splash_url,
    success_url: ap.success_url,
    // The spec's client reads the success page under both names.
    custom_success_url: ap.success_url,
    description: ap.description,
    venue_id: ap.venue_id,
    venue: { id: ap.venue_id, name: ap.venue_name },
    lat: ap.lat,
    lng: ap.lng,
    layout_x: ap.layout_x,
    layout_y: ap.layout_y,
    created_at: isoTime(ap.created_at),
    updated_at: isoTime(ap.updated_at),
    ...(counts
      ? {
          customersCount: counts.customersCount,
          connectionsCount: counts.connectionsCount,
          onlineConnectionsCount: counts.onlineConnectionsCount,
        }
      : {}),
  };
}

/**
 * The body of a write and the organisation it names: `organization_id` in the body, else the
 * X-Organization-Id header (422 without either, 404 for one the user is not a member of).
 */
export async function readScopedBody(request: Request, ...anyOf: Permission[]): Promise<{ ctx: OrgContext; body: ApiBody }> {
  await requireApiUser(request);
  const body = await readApiBody(request);
  if (body.typeErrors.organization_id) throw apiValidationFailed({ organization_id: body.typeErrors.organization_id });
  const raw = body.form.get("organization_id");
  const ctx = await requireApiOrg(request, typeof raw === "string" && raw.trim() !== "" ? raw : null, "organization_id", ...anyOf);
  return { ctx, body };
}

/** The organisation of a read: `organization_id` in the query, else the X-Organization-Id header. */
export function requireQueryOrg(request: Request, ...anyOf: Permission[]): Promise<OrgContext> {
  const raw = new URL(request.url).searchParams.get("organization_id");
  return requireApiOrg(request, raw && raw.trim() !== "" ? raw : null, "organization_id", ...anyOf);
}
