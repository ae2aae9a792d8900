// Venues and their access points.
import type { Insertable } from "kysely";
import { buildAccessPoint, buildVenue } from "../factories.server";
import type { AccessPointsTable, VenuesTable } from "~/db/schema";
import { AP_MAKES, VENUES, type VenueProfile } from "./catalogue.server";
import { scatter, type Random } from "./random.server";

const DAY = 86_400_000;

/** Neighbourhoods for further branches of the catalogue's venues. */
const NEIGHBOURHOODS: Record<"Nairobi" | "Mombasa", readonly string[]> = {
  Nairobi: ["Kilimani", "Karen", "Gigiri", "Lavington", "Upper Hill", "Parklands", "Kileleshwa", "South B"],
  Mombasa: ["Bamburi", "Kizingo", "Mtwapa", "Shanzu", "Tudor"],
};

export function venueProfiles(count: number): VenueProfile[] {
  return Array.from({ length: count }, (_, i) => {
    const base = VENUES[i % VENUES.length];
    const branch = Math.floor(i / VENUES.length);
    if (branch === 0) return base;
    // Further branches of the same brands in other neighbourhoods, slightly quieter.
    const city = base.address.endsWith("Mombasa") ? "Mombasa" : "Nairobi";
    const places = NEIGHBOURHOODS[city];
    const k = ((i % VENUES.length) + branch - 1) % places.length;
    const round = Math.floor((branch - 1) / places.length);
    const name = `${base.name} ${places[k]}${round ? ` ${round + 1}` : ""}`;
    return {
      ...base,
      name,
      address: `${places[k]}, ${city}`,
      lat: base.lat + (((i * 7) % 11) - 5) / 200,
      lng: base.lng + (((i * 5) % 13) - 6) / 200,
      traffic: base.traffic * 0.8,
    };
  });
}

export function venueRows(
  organizationId: number,
  profiles: VenueProfile[],
  random: Random,
  windowStart: number,
): Insertable<VenuesTable>[] {
  return profiles.map((p) => {
    // Venues predate the traffic history.
    const createdAt = windowStart - random.int(30, 400) * DAY;
    return buildVenue(organizationId, {
      name: p.name,
      address: p.address,
      email: p.email,
      phone_number: p.phone,
      lat: p.lat,
      lng: p.lng,
      map_zoom: 17,
      more_info: `${p.kind === "cafe" ? "Café" : p.kind[0].toUpperCase() + p.kind.slice(1)} guest network`,
      created_at: createdAt,
      updated_at: createdAt,
    });
  });
}

/** Splits the access points over the venues by venue size (D'Hondt), at least one each. */
export function accessPointCounts(profiles: VenueProfile[], total: number): number[] {
  const counts = profiles.map(() => 1);
  for (let k = profiles.length; k < total; k++) {
    let best = 0;
    for (let v = 1; v < profiles.length; v++) {
      if (profiles[v].size / (counts[v] + 1) > profiles[best].size / (counts[best] + 1)) best = v;
    }
    counts[best]++;
  }
  return counts;
}

export interface PlacedAccessPoint {
  venueIndex: number;
  row: Insertable<AccessPointsTable>;
}

export function accessPointRows(
  organizationId: number,
  profiles: VenueProfile[],
  venueIds: number[],
  counts: number[],
  random: Random,
  now: number,
  windowStart: number,
): PlacedAccessPoint[] {
  const placed: PlacedAccessPoint[] = [];
  const salt = random.int(0, 0xffffff);
  profiles.forEach((profile, v) => {
    // An operator mostly standardises on one make per site.
    const siteMake = AP_MAKES[v % AP_MAKES.length];
    for (let k = 0; k < counts[v]; k++) {
      const make = random.chance(0.25) ? random.pick(AP_MAKES) : siteMake;
      const area = profile.areas[k % profile.areas.length];
      const round = Math.floor(k / profile.areas.length);
      // Unique per organisation: the low three bytes come from a bijection of the index.
      const low = scatter(placed.length, 24, salt);
      const mac = `${make.oui}:${hex(low >>> 16)}:${hex((low >>> 8) & 0xff)}:${hex(low & 0xff)}`;
      const createdAt = windowStart - random.int(5, 25) * DAY;
      placed.push({
        venueIndex: v,
        row: buildAccessPoint(organizationId, venueIds[v], {
          name: round === 0 ? area : `${area} ${round + 1}`,
          make: make.make,
          mac_address: mac,
          serial_number: make.serial(random),
          description: `${make.make} access point, ${area.toLowerCase()}`,
          lat: profile.lat + (random.next() - 0.5) * 0.0008,
          lng: profile.lng + (random.next() - 0.5) * 0.0008,
          last_seen_at: now - random.int(5, 300) * 1000,
          created_at: createdAt,
          updated_at: createdAt,
        }),
      });
    }
  });
  return placed;
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, "0");
}
