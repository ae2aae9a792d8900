import type { Generated, Insertable, Selectable, Updateable } from "kysely";

// Conventions (docs/decisions/0001-storage-representations.md):
// - timestamps are integer milliseconds since the Unix epoch (UTC), columns end in _at;
// - booleans are integers 0/1;
// - money is integer minor units (cents), columns end in _cents.

type Timestamp = number;
type Flag = 0 | 1;

export interface UsersTable {
  id: Generated<number>;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  email: string; // lower-cased
  phone_number: string; // E.164
  password_hash: string;
  dashboard: string | null; // JSON of the personal dashboard
  /** When the owner of `email` opened a link mailed to it; null until then (decision 0013). */
  email_verified_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EmailVerificationsTable {
  id: Generated<number>;
  user_id: number;
  email: string; // the address the link went to: the account's, or a new one it is changing to
  token_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  label: TokenKind;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  // Nullable only because the column was added to existing rows; every token has one.
  expires_at: Timestamp | null;
}

/** `web`: a browser's sign-in (in the cookie session); `api`: a script's bearer token. */
export type TokenKind = "web" | "api";

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  address: string | null;
  email_address: string | null;
  phone_number: string | null;
  more_info: string | null;
  created_by_user_id: number | null;
  /** IANA name, for display ("Africa/Nairobi"; "UTC" for organisations made before zones). */
  time_zone: Generated<string>;
  /** The zone's standard offset from UTC: analytics days and hours start at this local midnight (decision 0023). */
  utc_offset_ms: Generated<number>;
  /** Days after a guest's last visit that their personal data is kept; then the anonymisation job clears it. */
  retention_days: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type AdminStatus = "Pending" | "Accepted" | "Declined";

export interface AdministratorsTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number | null; // null until the invitee has an account: 'Pending registration'
  role_id: number | null;
  invited_email_address: string | null;
  status: AdminStatus;
  is_owner: Flag; // the organisation's creator: im_admin
  invite_token_hash: string | null;
  invited_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type RoleType = "r_w" | "r" | "custom";

export interface RolesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string | null;
  role_type: RoleType;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PermissionsTable {
  id: Generated<number>;
  identifier: string;
  name: string;
  description: string | null;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
}

export interface VenuesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  address: string;
  email: string | null;
  phone_number: string | null;
  custom_splash_url: string | null;
  success_url: string | null;
  more_info: string | null;
  layout_image: string | null;
  layout_polygon: string | null; // JSON list of polygons of {lat, lng}
  map_zoom: number | null;
  lat: number | null;
  lng: number | null;
  /** In every gateway URL (/hotspot/{make}/{portal_key}); unguessable. */
  portal_key: string;
  gateway_secret: string | null; // ciphertext (secrets.server.ts)
  gateway_secret_hash: string | null; // sha256 hex of the plain secret
  opennds_faskey: string | null; // ciphertext
  unifi_url: string | null;
  unifi_username: string | null;
  unifi_password: string | null; // ciphertext
  /** SHA-256 of the controller's certificate the operator trusts (hex, lower case), for a self-signed one. */
  unifi_fingerprint?: string | null;
  session_minutes: Generated<number>;
  guest_signup: Generated<Flag>;
  /** The guest pages' default language: 'en' or 'sw' (decision 0079). */
  guest_language: Generated<string>;
  terms_url: string | null;
  privacy_url: string | null;
  /** The network's own splash page when no display rule applies (null: the built-in page). */
  splash_page_id: number | null;
  /** Which sign-up fields the network asks (names: first and last name). */
  signup_phone: Generated<SignupFieldRule>;
  signup_email: Generated<SignupFieldRule>;
  signup_names: Generated<SignupFieldRule>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type SignupFieldRule = "required" | "optional" | "off";

export interface AccessPointsTable {
  id: Generated<number>;
  organization_id: number;
  venue_id: number;
  name: string;
  make: string;
  mac_address: string; // normalised: lower-case, colon separated
  serial_number: string;
  custom_splash_url: string | null;
  success_url: string | null;
  description: string | null;
  lat: number | null;
  lng: number | null;
  layout_x: number | null;
  layout_y: number | null;
  last_seen_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CustomersTable {
  id: Generated<number>;
  organization_id: number;
  identity: string;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  email_address: string | null;
  twitter: string | null;
  facebook: string | null;
  more_info: string | null;
  terms_accepted_at: Timestamp | null;
  /** Broadcasts reach only customers who opted in; null: never, or withdrawn. */
  marketing_opt_in_at: Timestamp | null;
  /** When they last opted out (unsubscribe link, STOP reply); opting out also clears marketing_opt_in_at. */
  marketing_opted_out_at: Timestamp | null;
  /** When the personal data was cleared (retention ran out, or the guest asked); the figures stay. */
  anonymised_at: Timestamp | null;
  /** When the guest asked for deletion on the data-access page (the job anonymises). */
  erasure_requested_at: Timestamp | null;
  /** When the guest proved owning phone_number (a code answered, or an M-Pesa payment from it); null: never. */
  phone_proved_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DevicesTable {
  id: Generated<number>;
  organization_id: number;
  customer_id: number | null;
  name: string | null;
  mac_address: string;
  os: string | null;
  os_version: string | null;
  brand: string | null;
  browser: string | null;
  is_mobile: Flag;
  blocked_at: Timestamp | null;
  last_seen_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConnectionsTable {
  id: Generated<number>;
  organization_id: number;
  venue_id: number | null;
  access_point_id: number | null;
  access_point_mac: string | null;
  customer_id: number | null;
  device_id: number | null;
  ssid: string | null;
  authorization_mode: string | null;
  token: string | null; // sha256 hex of the guest connect token
  token_expires_at: Timestamp | null;
  client_ip: string | null;
  gateway: GatewayMake | null;
  gateway_context: string | null; // JSON the adapter needs to grant and revoke
  /** The NAS that accepted the guest's RADIUS login (Disconnect and CoA go to it); RADIUS makes only. */
  radius_client_id?: number | null;
  /** The NAS's Acct-Session-Id and the guest's Framed-IP-Address, from accounting: Disconnect and CoA name the session by them. */
  nas_session_id?: string | null;
  framed_ip?: string | null;
  created_at: Timestamp; // reached the portal
  authorized_at: Timestamp | null; // got online
  session_expires_at: Timestamp | null;
  accounted_at: Timestamp | null; // newest accounting record; null: the gateway sends none
  ended_at: Timestamp | null;
  terminate_cause: string | null;
  /** The plan the guest is online under (the free plan today; vouchers and M-Pesa later). */
  subscription_id: number | null;
  upload: number; // bytes
  download: number; // bytes
}

/** What happened to a connection at a gateway, for its timeline (connection-events.server.ts). */
export interface ConnectionEventsTable {
  id: Generated<number>;
  organization_id: number;
  connection_id: number;
  kind: string;
  /** JSON: what was sent, to which gateway, and its answer */
  detail: string;
  created_at: Timestamp;
}

export type GatewayMake = "meraki" | "opennds" | "unifi" | "mlango" | RadiusMake;
/** Gateways that log guests in with RADIUS. */
export type RadiusMake = "mikrotik" | "cisco" | "ruckus";

/** A gateway (NAS client) that sends RADIUS to FreeRADIUS in front of Mlango. */
export interface RadiusClientsTable {
  id: Generated<number>;
  organization_id: number;
  venue_id: number;
  name: string;
  make: RadiusMake;
  ip_address: string;
  /** encryptSecret(...): FreeRADIUS needs the secret back to check the NAS's packets. */
  secret: string;
  coa_port: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What a Disconnect-Request or CoA-Request sent to a NAS answered. */
export interface RadiusMessagesTable {
  id: Generated<number>;
  organization_id: number;
  radius_client_id: number;
  connection_id: number;
  kind: "Disconnect" | "CoA";
  outcome: "ACK" | "NAK" | "timeout";
  detail: string | null;
  created_at: Timestamp;
}

/** A one-time code sent to a guest's phone (portal/phone-proof.server.ts); only its hash is kept. */
export interface GuestCodesTable {
  id: Generated<number>;
  organization_id: number;
  phone_number: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface CustomerConsentsTable {
  id: Generated<number>;
  organization_id: number;
  customer_id: number;
  connection_id: number | null;
  venue_id: number | null;
  kind: "terms" | "marketing";
  granted: Flag;
  wording_version: string;
  created_at: Timestamp;
}

export type OAuthProviderName = "fb" | "google" | "twitter" | "linkedin" | "ajira";

export interface OAuthProvidersTable {
  id: Generated<number>;
  organization_id: number;
  provider: OAuthProviderName;
  client_id: string;
  client_secret: string; // ciphertext
  settings: string | null; // JSON
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A Mlango-make entry's nonce, kept until the entry's signature window has passed (one visit per signed URL). */
export interface GatewayNoncesTable {
  venue_id: number;
  nonce: string;
  expires_at: Timestamp;
}

export interface GatewayRevocationsTable {
  id: Generated<number>;
  organization_id: number;
  venue_id: number;
  connection_id: number;
  client_mac: string;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

export interface ReportSubscriptionsTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  report: string; // overview | new_visitors | unique_visitors | all_visitors | repeat_visitors | footfall
  send_at: number; // hour of the UTC day, 1–24 (24 = midnight at the end of the day)
  first_day: string; // YYYY-MM-DD, the first UTC day to deliver
  last_sent_on: string | null; // YYYY-MM-DD
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ReportDeliveryStatus = "sending" | "sent" | "failed";

/** One row per subscription and UTC day: the scheduler's claim, retry state and delivery record. */
export interface ReportDeliveriesTable {
  id: Generated<number>;
  subscription_id: number;
  day: string; // YYYY-MM-DD
  status: ReportDeliveryStatus;
  attempts: number;
  claim_token: string | null;
  claimed_at: Timestamp | null;
  next_attempt_at: Timestamp | null;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
}

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobsTable {
  id: Generated<number>;
  type: string;
  payload: string; // JSON
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Timestamp;
  locked_until: Timestamp | null;
  lock_token: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface VenueZonesTable {
  id: Generated<number>;
  organization_id: number;
  venue_id: number;
  polygon: string; // JSON list of {lat, lng}
  created_at: Timestamp;
}

// Analytics roll-ups (migration 0004, kept by triggers; docs/decisions/0009-analytics-rollups.md).
// venue_id / access_point_id 0: deleted; venue_id -1: every venue together; venue_key 0: the whole organisation.
interface UsageSums {
  footfall: number;
  connections: number;
  upload: number;
  download: number;
  dwell_ms: number;
}

export interface UsageHourlyTable extends UsageSums {
  organization_id: number;
  hour_start: Timestamp;
  venue_id: number;
}

export interface UsageDailyTable extends UsageSums {
  organization_id: number;
  venue_id: number;
  day_start: Timestamp;
}

export interface UsageDailyApTable extends UsageSums {
  organization_id: number;
  day_start: Timestamp;
  venue_id: number;
  access_point_id: number;
}

export interface DimensionDailyTable {
  organization_id: number;
  dimension: "mode" | "is_mobile" | "os" | "brand" | "browser";
  day_start: Timestamp;
  venue_id: number;
  value: string;
  footfall: number;
  connections: number;
}

export interface CustomerVisitDaysTable {
  organization_id: number;
  customer_id: number;
  venue_key: number;
  day_start: Timestamp;
  next_day: Timestamp;
  /** The customer's first day in the organisation (the same on all their rows). */
  org_first_day: Timestamp;
  connections: number;
}

export interface CustomerGapsTable {
  organization_id: number;
  venue_key: number;
  next_day: Timestamp;
  day_start: Timestamp;
  customers: number;
}

/** Like customer_visit_days for every connection record with a customer, authorized or not (migration 0034). */
export interface CustomerPresenceDaysTable {
  organization_id: number;
  customer_id: number;
  venue_key: number;
  day_start: Timestamp;
  next_day: Timestamp;
  records: number;
}

export interface PresenceGapsTable {
  organization_id: number;
  venue_key: number;
  next_day: Timestamp;
  day_start: Timestamp;
  customers: number;
}

/** A customer's visit days and authorized connections in the whole organisation (migration 0035). */
export interface CustomerTotalsTable {
  organization_id: number;
  customer_id: number;
  days: number;
  connections: number;
}

export interface CustomerFirstDaysTable {
  organization_id: number;
  venue_key: number;
  org_first_day: Timestamp;
  venue_first_day: Timestamp;
  customers: number;
}

export interface AnalyticsPausedTable {
  organization_id: number;
}

// Splash pages (migration 0013; docs/decisions/0016-splash-pages.md).
export type CssTemplate = "tailwind.css" | "bootstrap4.css" | "bootstrap3.css";
/** 1: drag-and-drop builder; 2: code editor; null: not set up. */
export type SplashPageType = 1 | 2;

export interface SplashPagesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string | null;
  css_template: CssTemplate;
  type: SplashPageType | null;
  html: Generated<string>;
  css: Generated<string>;
  custom_scripts: Generated<string>;
  project_data: string | null;
  draft_revision: Generated<number>;
  published_revision: number | null;
  published_at: Timestamp | null;
  /** The published document up to the connect form, and after it. */
  published_before: string | null;
  published_after: string | null;
  public_key: string;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SplashPageConfigsTable {
  id: Generated<number>;
  splash_page_id: number;
  name: string;
  title: string;
  default_value: Generated<string>;
  custom_value: string | null;
  position: Generated<number>;
}

export type DisplayFactor = "After" | "On";
export type DisplayFactorType = "Session" | "Day";

export interface SplashDisplaySettingsTable {
  id: Generated<number>;
  organization_id: number;
  splash_page_id: number;
  start_date: string | null; // YYYY-MM-DD, UTC, inclusive
  end_date: string | null;
  factor: DisplayFactor;
  factor_count: number;
  factor_type: DisplayFactorType;
  created_at: Timestamp;
}

export interface SplashDisplaySettingAccessPointsTable {
  display_setting_id: number;
  access_point_id: number;
}

export interface SplashAssetsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  key: string;
  content_type: string;
  size: number;
  created_at: Timestamp;
}

// Fair usage and prepaid (migration 0014).
export type BandwidthUnit = "Kbps" | "Mbps";
export type DurationUnit = "Mins" | "Hrs" | "Days";
export type DataUnit = "MBs" | "GBs";
export type FreeEvery = "day" | "week" | "validity";

export interface BandwidthPoliciesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  max_upload: number;
  max_upload_unit: BandwidthUnit;
  max_download: number;
  max_download_unit: BandwidthUnit;
  max_upload_kbps: number;
  max_download_kbps: number;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ServicePlansTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  code: string;
  description: string | null;
  free_internet: Generated<Flag>;
  bandwidth_policy_id: number | null;
  time_limit: number | null;
  time_limit_unit: DurationUnit | null;
  time_limit_minutes: number | null;
  usage_limit: number | null;
  usage_limit_unit: DataUnit | null;
  usage_limit_bytes: number | null;
  simultaneous_connections: Generated<number>;
  validity: number;
  validity_units: DurationUnit;
  validity_minutes: number;
  price_cents: Generated<number>;
  free_every: FreeEvery | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type SubscriptionSource = "free" | "voucher" | "mpesa";
/** Stored statuses; "Expired" is read from expires_on (decision 0017). */
export type SubscriptionStatus = "Pending" | "Active" | "Exhausted" | "Cancelled";

export interface SubscriptionsTable {
  id: Generated<number>;
  organization_id: number;
  customer_id: number | null;
  device_id: number | null;
  service_plan_id: number | null;
  plan_name: string;
  price_cents: number;
  source: SubscriptionSource;
  status: SubscriptionStatus;
  started_on: Timestamp | null;
  expires_on: Timestamp | null;
  time_limit_minutes: number | null;
  usage_limit_bytes: number | null;
  simultaneous_connections: number;
  used_bytes: Generated<number>;
  max_upload_kbps: number | null;
  max_download_kbps: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VoucherGroupsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  face_value_cents: number;
  valid_till: string; // YYYY-MM-DD, inclusive, UTC
  service_plan_id: number | null;
  codes_count: number;
  uses_per_code: Generated<number>;
  redeemed_entries: Generated<number>;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VouchersTable {
  id: Generated<number>;
  organization_id: number;
  voucher_group_id: number;
  code: string;
  uses: Generated<number>;
  first_redeemed_at: Timestamp | null;
}

export type MpesaEnvironment = "sandbox" | "production";
export type MpesaShortCodeType = "paybill" | "till";

/** An organisation's Daraja credentials; secrets are ciphertext (encryptSecret). */
export interface MpesaSettingsTable {
  id: Generated<number>;
  organization_id: number;
  environment: MpesaEnvironment;
  consumer_key: string;
  consumer_secret: string; // ciphertext
  shortcode: string;
  passkey: string; // ciphertext
  type: MpesaShortCodeType;
  party_b: string;
  callback_key: string;
  /** SHA-256 (hex) of callback_key: what a callback is looked up by (compared in constant time after) */
  callback_key_hash: string | null;
  /** Daraja's initiator, for Transaction Status and Reversal ('' when not set) */
  initiator_name: Generated<string>;
  security_credential: Generated<string>; // ciphertext ('' when not set)
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The one Daraja OAuth token per credential, shared by every instance (daraja.server.ts). */
export interface DarajaTokensTable {
  key_hash: string;
  token: string | null; // ciphertext
  token_hash: string | null;
  expires_at: Timestamp;
  lease_until: Timestamp;
  lease_id: string | null;
  updated_at: Timestamp;
}

/**
 * 0 pending, 1 completed, 2 failed, 3 unconfirmed: the waiting page stopped waiting but Daraja has
 * not given a final answer, so it is still asked about (spec 3: status 1 is Completed, anything
 * else Incomplete).
 */
export type MpesaTransactionStatus = 0 | 1 | 2 | 3;

/** An STK push started on the connect page, or a C2B confirmation. */
export interface MpesaTransactionsTable {
  id: Generated<number>;
  organization_id: number;
  source: "stk" | "c2b";
  status: Generated<MpesaTransactionStatus>;
  connection_id: number | null;
  subscription_id: number | null;
  service_plan_id: number | null;
  phone_number: string;
  amount: number;
  short_code: string;
  account_reference: string | null;
  merchant_request_id: string | null;
  checkout_request_id: string | null;
  transaction_id: string | null;
  result_code: number | null;
  result_desc: string | null;
  completed_at: Timestamp | null;
  next_check_at: Timestamp | null;
  /** the guest cancelled it on the waiting page (still open until Daraja's final answer; decision 0078) */
  cancelled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type PaymentExceptionKind =
  "paid_not_granted" | "late" | "duplicate_receipt" | "amount_mismatch" | "unknown_purchase" | "unconfirmed" | "unmatched_amount";
export type PaymentExceptionStatus = "open" | "granted" | "refunding" | "refunded" | "refund_failed" | "dismissed";

/** An M-Pesa payment that needs a person (payment-exceptions.server.ts). */
export interface PaymentExceptionsTable {
  id: Generated<number>;
  organization_id: number;
  kind: PaymentExceptionKind;
  status: Generated<PaymentExceptionStatus>;
  dedupe_key: string;
  mpesa_transaction_id: number | null;
  connection_id: number | null;
  subscription_id: number | null;
  service_plan_id: number | null;
  receipt: string | null;
  phone_number: Generated<string>;
  amount: number | null;
  expected_amount: number | null;
  checkout_request_id: string | null;
  detail: string;
  reversal_conversation_id: string | null;
  reversal_result: string | null;
  resolved_by: number | null;
  resolved_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** checking: Daraja's Transaction Status was asked; granted: the plan was given; unmatched: no plan costs the amount (an exception); refused: M-Pesa does not know it (may be claimed again). */
export type ReceiptClaimStatus = "checking" | "granted" | "unmatched" | "refused";

/** A receipt a guest typed on the connect page (receipt-claims.server.ts): one row per receipt, ever. */
export interface MpesaReceiptClaimsTable {
  id: Generated<number>;
  organization_id: number;
  receipt: string;
  status: ReceiptClaimStatus;
  connection_id: number | null;
  device_id: number | null;
  subscription_id: number | null;
  amount: number | null;
  phone_number: Generated<string>;
  conversation_id: string | null;
  result: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type BroadcastChannel = "BOTH" | "SMS" | "EMAIL";
export type DeliveryChannel = "SMS" | "EMAIL";
export type ScheduleStatus = "Scheduled" | "Sending" | "Sent" | "Failed" | "Cancelled";
export type DeliveryStatus = "queued" | "sent" | "delivered" | "failed" | "bounced" | "opted_out";

export interface CustomerGroupsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string | null;
  /** The spec's group filter structure as JSON (app/lib/schemas/groups.ts). */
  filters: string;
  /** The last member count and when it was made (the list shows it while fresh); null after a filter change. */
  customers_count: number | null;
  counted_at: Timestamp | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BroadcastsTable {
  id: Generated<number>;
  organization_id: number;
  /** Also the e-mail's subject. */
  title: string;
  description: string | null;
  sms: string | null;
  email_html: string | null;
  email_text: string | null;
  email_design: string | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BroadcastSchedulesTable {
  id: Generated<number>;
  organization_id: number;
  broadcast_id: number;
  channel: BroadcastChannel;
  dispatch_at: Timestamp;
  status: ScheduleStatus;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  error: string | null;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BroadcastScheduleGroupsTable {
  schedule_id: number;
  group_id: number | null;
  group_name: string;
}

export interface BroadcastDeliveriesTable {
  id: Generated<number>;
  organization_id: number;
  schedule_id: number;
  customer_id: number;
  channel: DeliveryChannel;
  address: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  provider_message_id: string | null;
  cost: string | null;
  error: string | null;
  sent_at: Timestamp | null;
  delivered_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SmsSettingsTable {
  id: Generated<number>;
  organization_id: number;
  provider: "africastalking";
  username: string;
  /** Ciphertext (encryptSecret). */
  api_key: string;
  sender_id: string | null;
  messages_per_second: number;
  callback_key: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// Ads (migration 0031, decision 0020).
export interface AdCampaignsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  client_name: string;
  revenue_cents: number;
  activate_at: Timestamp;
  /** null: runs until paused. */
  expire_at: Timestamp | null;
  /** The spec's pause flag: 1 Paused. */
  paused: number;
  /** 1: every network of the organisation; 0: those in ad_campaign_networks. */
  all_networks: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AdCampaignNetworksTable {
  campaign_id: number;
  venue_id: number;
}

export interface AdBannersTable {
  id: Generated<number>;
  organization_id: number;
  campaign_id: number;
  asset_key: string;
  description: string | null;
  width: number;
  height: number;
  size: number;
  active: number;
  click_url: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AdEventsTable {
  id: Generated<number>;
  organization_id: number;
  campaign_id: number;
  banner_id: number;
  connection_id: number;
  /** i impression, c click */
  kind: "i" | "c";
  /** epoch minutes */
  minute: number;
  created_at: Timestamp;
}

export interface AdHourlyTable {
  organization_id: number;
  campaign_id: number;
  banner_id: number;
  hour: Timestamp;
  impressions: number;
  clicks: number;
  conversions: number;
}

export interface AdRollupStateTable {
  id: number;
  rolled_until: Timestamp;
}

export type SurveyQuestionType = "text" | "multiple" | "checkbox" | "dropdown" | "rating";

export interface SurveysTable {
  id: Generated<number>;
  organization_id: number;
  title: string;
  description: string | null;
  /** YYYY-MM-DD (UTC day); the status (Upcoming, Active, Expired) is derived from the two dates. */
  start_date: string;
  /** YYYY-MM-DD, inclusive. */
  end_date: string;
  created_by_user_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SurveyQuestionsTable {
  id: Generated<number>;
  survey_id: number;
  position: number;
  question_text: string;
  question_type: SurveyQuestionType;
  /** JSON array of strings; [] for text and rating. */
  options: string;
  /** Removed in an edit: no longer asked; its answers stay. */
  removed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SurveyVenuesTable {
  survey_id: number;
  venue_id: number;
}

export interface SurveyParticipationsTable {
  id: Generated<number>;
  organization_id: number;
  survey_id: number;
  customer_id: number;
  connection_id: number | null;
  status: "answered" | "skipped";
  created_at: Timestamp;
}

/** Answers per survey, UTC day, question and answer ('' for text answers), kept by a trigger (migration 0030). */
export interface SurveyAnswerDaysTable {
  survey_id: number;
  question_id: number;
  day: number;
  answer: string;
  responses: number;
}

export interface SurveyResponsesTable {
  id: Generated<number>;
  organization_id: number;
  survey_id: number;
  question_id: number;
  customer_id: number | null;
  connection_id: number | null;
  answer: string;
  created_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  password_resets: PasswordResetsTable;
  organizations: OrganizationsTable;
  administrators: AdministratorsTable;
  roles: RolesTable;
  permissions: PermissionsTable;
  role_permissions: RolePermissionsTable;
  venues: VenuesTable;
  access_points: AccessPointsTable;
  customers: CustomersTable;
  devices: DevicesTable;
  connections: ConnectionsTable;
  connection_events: ConnectionEventsTable;
  rate_limits: RateLimitsTable;
  report_subscriptions: ReportSubscriptionsTable;
  report_deliveries: ReportDeliveriesTable;
  venue_zones: VenueZonesTable;
  usage_hourly: UsageHourlyTable;
  usage_daily: UsageDailyTable;
  usage_daily_ap: UsageDailyApTable;
  dimension_daily: DimensionDailyTable;
  customer_visit_days: CustomerVisitDaysTable;
  customer_gaps: CustomerGapsTable;
  customer_first_days: CustomerFirstDaysTable;
  customer_totals: CustomerTotalsTable;
  customer_presence_days: CustomerPresenceDaysTable;
  presence_gaps: PresenceGapsTable;
  analytics_paused: AnalyticsPausedTable;
  jobs: JobsTable;
  email_verifications: EmailVerificationsTable;
  customer_consents: CustomerConsentsTable;
  guest_codes: GuestCodesTable;
  oauth_providers: OAuthProvidersTable;
  gateway_revocations: GatewayRevocationsTable;
  gateway_nonces: GatewayNoncesTable;
  splash_pages: SplashPagesTable;
  splash_page_configs: SplashPageConfigsTable;
  splash_display_settings: SplashDisplaySettingsTable;
  splash_display_setting_access_points: SplashDisplaySettingAccessPointsTable;
  splash_assets: SplashAssetsTable;
  bandwidth_policies: BandwidthPoliciesTable;
  service_plans: ServicePlansTable;
  subscriptions: SubscriptionsTable;
  voucher_groups: VoucherGroupsTable;
  vouchers: VouchersTable;
  mpesa_settings: MpesaSettingsTable;
  mpesa_transactions: MpesaTransactionsTable;
  payment_exceptions: PaymentExceptionsTable;
  mpesa_receipt_claims: MpesaReceiptClaimsTable;
  daraja_tokens: DarajaTokensTable;
  customer_groups: CustomerGroupsTable;
  broadcasts: BroadcastsTable;
  broadcast_schedules: BroadcastSchedulesTable;
  broadcast_schedule_groups: BroadcastScheduleGroupsTable;
  broadcast_deliveries: BroadcastDeliveriesTable;
  radius_clients: RadiusClientsTable;
  radius_messages: RadiusMessagesTable;
  sms_settings: SmsSettingsTable;
  surveys: SurveysTable;
  survey_questions: SurveyQuestionsTable;
  survey_venues: SurveyVenuesTable;
  survey_participations: SurveyParticipationsTable;
  survey_responses: SurveyResponsesTable;
  survey_answer_days: SurveyAnswerDaysTable;
  ad_campaigns: AdCampaignsTable;
  ad_campaign_networks: AdCampaignNetworksTable;
  ad_banners: AdBannersTable;
  ad_events: AdEventsTable;
  ad_hourly: AdHourlyTable;
  ad_rollup_state: AdRollupStateTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Organization = Selectable<OrganizationsTable>;
export type NewConnection = Insertable<ConnectionsTable>;
