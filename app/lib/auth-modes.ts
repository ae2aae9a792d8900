// Authorization modes as people read them. Connections store the portal's codes (SIGNUP,
// CLICK_THROUGH, VOUCHER, MPESA, SUBSCRIPTION, the social providers' names; "unknown" in the
// roll-ups when a connection has none): pages and exports show words, the APIs keep the codes.
const LABELS: Record<string, string> = {
  signup: "Sign-up",
  click_through: "Click-through",
  voucher: "Voucher",
  mpesa: "M-Pesa",
  subscription: "Subscription",
  sms: "SMS",
  fb: "Facebook",
  facebook: "Facebook",
  google: "Google",
  twitter: "Twitter",
  linkedin: "LinkedIn",
  ajira: "Ajira",
  unknown: "Unknown",
};

/** "CLICK_THROUGH" → "Click-through"; a code it does not know is shown as it is. */
export function authModeLabel(mode: string | null | undefined): string {
  if (!mode) return "Unknown";
  return LABELS[mode.toLowerCase()] ?? mode;
}
