// The shape of the words guest pages take as props (the catalogues, app/guest/i18n/, fill them in
// each language; decision 0079). Components hold no words of their own.
import type { OAuthProviderName } from "~/db/schema";

export interface ConnectText {
  title: string;
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  phone: string;
  marketingOptIn: (organization: string) => string;
  connect: string;
  /** The words before the terms' link, between it and the privacy notice's, and after. */
  accept: (organization: string) => [string, string, string];
  termsOfUse: string;
  privacyNotice: string;
  or: string;
  heldPlan: [string, string, string];
  continueWithPlan: string;
  voucherCode: string;
  useVoucher: string;
  continueWith: (provider: OAuthProviderName) => string;
  buyWithMpesa: string;
  currency: string;
  mpesaPhone: string;
  payWithMpesa: string;
  mpesaPrompt: string;
  receiptTitle: string;
  receiptHint: string;
  receiptCode: string;
  useReceipt: string;
  sponsored: string;
  advertisement: string;
}

/** Plans in words. */
export interface PlanWords {
  minutes: (n: number) => string;
  hours: (n: number) => string;
  days: (n: number) => string;
  upTo: (size: string) => string;
  unlimited: string;
  within: (time: string) => string;
  every: { day: string; week: string; validity: string };
  free: (parts: string) => string;
  months: string[];
}

export interface OnlineText {
  title: string;
  body: string;
  until: (time: string) => string;
  already: string;
}

export interface WaitingText {
  title: string;
  enterPin: (phone: string, amount: number, plan: string) => string;
  checks: string;
  checkNow: string;
  back: string;
}

export interface FailedText {
  title: string;
  retry: string;
}

/** The other language's link on a page ("Kiswahili" on an English page). */
export interface LanguageLink {
  href: string;
  lang: string;
  name: string;
}
