import { z } from "zod";

// A network's RADIUS gateways (NAS clients): the form on the network's RADIUS
// page and the API share this schema. The secret is made by Mlango and shown once.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 address in dotted decimal, or an IPv6 address (checked by the URL parser, which also runs in browsers). */
export function isIpAddress(value: string): boolean {
  if (IPV4.test(value)) return true;
  if (!value.includes(":") || !/^[0-9a-f:.]+$/i.test(value)) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

export const RADIUS_MAKES = [
  { value: "mikrotik", label: "MikroTik" },
  { value: "cisco", label: "Cisco WLC" },
  { value: "ruckus", label: "Ruckus" },
] as const;

export const RADIUS_CLIENT_MESSAGES = {
  nameRequired: "Name field is required.",
  nameTooLong: "The name must be at most 100 characters.",
  addressRequired: "Address field is required.",
  addressInvalid: "Enter the gateway's IPv4 or IPv6 address, such as 41.90.12.7.",
  addressTaken:
    "A RADIUS gateway with this address is already registered. FreeRADIUS tells gateways apart by their address: each needs its own.",
  makeInvalid: "Choose the gateway's make: MikroTik, Cisco WLC or Ruckus.",
  portInvalid: "Enter the port the gateway takes Disconnect and CoA messages on, from 1 to 65535 (usually 3799).",
  added: "RADIUS gateway added. Copy its secret now: it is not shown again.",
  rotated: "New secret made. Copy it now: it is not shown again. The old one stops working within a minute.",
  removed: "RADIUS gateway removed.",
  removeQuestion: "Are you sure you want to remove this RADIUS gateway? Its guests can no longer log in through it.",
} as const;

export const radiusClientSchema = z.object({
  name: z
    .string({ required_error: RADIUS_CLIENT_MESSAGES.nameRequired })
    .trim()
    .min(1, RADIUS_CLIENT_MESSAGES.nameRequired)
    .max(100, RADIUS_CLIENT_MESSAGES.nameTooLong),
  ip_address: z
    .string({ required_error: RADIUS_CLIENT_MESSAGES.addressRequired })
    .trim()
    .min(1, RADIUS_CLIENT_MESSAGES.addressRequired)
    .max(45, RADIUS_CLIENT_MESSAGES.addressInvalid)
    .refine(isIpAddress, RADIUS_CLIENT_MESSAGES.addressInvalid)
    .transform((v) => v.toLowerCase()),
  make: z.enum(["mikrotik", "cisco", "ruckus"], { errorMap: () => ({ message: RADIUS_CLIENT_MESSAGES.makeInvalid }) }),
  coa_port: z.coerce
    .number({ invalid_type_error: RADIUS_CLIENT_MESSAGES.portInvalid })
    .int(RADIUS_CLIENT_MESSAGES.portInvalid)
    .min(1, RADIUS_CLIENT_MESSAGES.portInvalid)
    .max(65535, RADIUS_CLIENT_MESSAGES.portInvalid)
    .default(3799),
});

export type RadiusClientInput = z.infer<typeof radiusClientSchema>;
