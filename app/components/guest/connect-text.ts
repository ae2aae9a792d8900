// The connect form's words in one place, passed to the form as `text`: the catalogue another
// language adds (issue 35) has this shape. The spec's English messages are word for word.
import type { OAuthProviderName } from "~/db/schema";
import { PROVIDER_LABELS } from "~/lib/schemas/social-login";

export const CONNECT_TEXT = {
  title: "Get connected to WiFi",
  firstName: "First name",
  middleName: "Middle name (optional)",
  lastName: "Last name",
  email: "Email address",
  phone: "Phone number",
  marketingOptIn: (organization: string) =>
    `Send me news and offers from ${organization} by SMS and e-mail (optional; you can stop them at any time).`,
  connect: "Connect",
  // "By connecting you accept {organisation}'s {terms of use} and {privacy notice}."
  acceptPrefix: "By connecting you accept ",
  possessive: (organization: string) => `${organization}'s `,
  termsOfUse: "terms of use",
  and: " and ",
  privacyNotice: "privacy notice",
  or: "or",
  heldPlan: ["You have ", " on this device until ", "."] as const,
  continueWithPlan: "Continue with my plan",
  voucherCode: "Voucher code",
  useVoucher: "Use voucher",
  continueWith: (provider: OAuthProviderName) => `Continue with ${PROVIDER_LABELS[provider]}`,
  buyWithMpesa: "Buy a plan with M-Pesa",
  currency: "Kes",
  mpesaPhone: "M-Pesa phone number",
  payWithMpesa: "Pay with M-Pesa",
  mpesaPrompt: "You will get a prompt on this phone to enter your M-Pesa PIN.",
  sponsored: "Sponsored",
  advertisement: "Advertisement",
};

export type ConnectText = typeof CONNECT_TEXT;
