// The console's account API as the simulator uses it (README, "Scripts can use the console like a
// browser"): sign in for a bearer token, pick the organisation and a network, add access points, and
// read and set the network's gateway settings.
export interface ApiVenue {
  id: number;
  name: string;
  success_url: string | null;
}

export interface ApiAccessPoint {
  id: number;
  name: string;
  mac_address: string;
  venue_id: number;
  success_url: string | null;
}

export interface ApiGateway {
  portal_key: string;
  urls: Record<"meraki" | "opennds" | "unifi" | "mlango" | "mikrotik" | "cisco" | "ruckus", string>;
  gateway_secret_set?: boolean;
  session_minutes?: number;
  guest_signup?: boolean;
  [key: string]: unknown;
}

export interface GatewaySettings {
  gateway_secret: string;
  opennds_faskey: string;
  unifi_url?: string;
  unifi_username?: string;
  unifi_password?: string;
  session_minutes: number;
  guest_signup: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class ConsoleApi {
  private token: string | null = null;
  organizationId: number | null = null;

  constructor(readonly origin: string) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (this.organizationId !== null) headers["X-Organization-Id"] = String(this.organizationId);
    const response = await fetch(new URL(`/account/api/v1/${path}`, this.origin), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let json: {
      data?: T;
      error?: { message?: string };
      errors?: Record<string, string[]>;
    } = {};
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: described below
    }
    if (!response.ok) {
      const detail = json.errors
        ? Object.entries(json.errors)
            .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
            .join("; ")
        : (json.error?.message ?? text.slice(0, 200));
      throw new ApiError(response.status, `${method} /account/api/v1/${path}: HTTP ${response.status} ${detail}`);
    }
    return json.data as T;
  }

  async signIn(loginId: string, password: string): Promise<void> {
    const data = await this.call<{ api_token: string }>("POST", "auth/login", {
      login_id: loginId,
      password,
    });
    this.token = data.api_token;
  }

  /** The given organisation, else the first one the user is an accepted member of. */
  async useOrganization(id?: number): Promise<{ id: number; name: string }> {
    const { organizations } = await this.call<{
      organizations: { id: number; name: string }[];
    }>("GET", "organizations?admin_status=Accepted&per_page=100");
    const org = id === undefined ? organizations[0] : organizations.find((o) => o.id === id);
    if (!org) throw new Error(id === undefined ? "This user belongs to no organisation." : `Organisation ${id} is not one of this user's.`);
    this.organizationId = org.id;
    return org;
  }

  async venue(id: number): Promise<ApiVenue> {
    return (await this.call<{ venue: ApiVenue }>("GET", `venues/${id}`)).venue;
  }

  async findVenue(name: string): Promise<ApiVenue | null> {
    const { venues } = await this.call<{ venues: ApiVenue[] }>("GET", `venues?query=${encodeURIComponent(name)}&per_page=100`);
    return venues.find((v) => v.name === name) ?? null;
  }

  async createVenue(name: string, address: string): Promise<ApiVenue> {
    return (await this.call<{ venue: ApiVenue }>("POST", "venues", { name, address })).venue;
  }

  async accessPoints(venueId: number): Promise<ApiAccessPoint[]> {
    return (await this.call<{ access_points: ApiAccessPoint[] }>("GET", `access_points?venue_id=${venueId}&per_page=100`)).access_points;
  }

  async createAccessPoint(fields: {
    name: string;
    make: string;
    mac_address: string;
    serial_number: string;
    venue_id: number;
  }): Promise<ApiAccessPoint> {
    return (await this.call<{ access_point: ApiAccessPoint }>("POST", "access_points", fields)).access_point;
  }

  async gateway(venueId: number): Promise<ApiGateway> {
    return (await this.call<{ gateway: ApiGateway }>("GET", `venues/${venueId}/gateway`)).gateway;
  }

  /** Registers a RADIUS gateway (NAS) on the network; the secret comes back once. */
  async addRadiusClient(
    venueId: number,
    fields: { name: string; make: string; ip_address: string; coa_port: number },
  ): Promise<{ id: number; secret: string }> {
    return this.call<{ id: number; secret: string }>("POST", `venues/${venueId}/radius-clients`, fields);
  }

  async setGateway(venueId: number, settings: GatewaySettings): Promise<ApiGateway> {
    return (await this.call<{ gateway: ApiGateway }>("PUT", `venues/${venueId}/gateway`, settings)).gateway;
  }
}
