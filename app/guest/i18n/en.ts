// Every word guest pages show, in English: the catalogue Kiswahili (sw.ts) follows key for key
// (decision 0079). The spec's messages are the services' own constants, taken as they are, so the
// English pages keep them word for word; `outcomes` holds the messages services return, which the
// guest side translates by their English text (./index.ts).
import { CHANGE_OF_MIND_TEXT } from "~/components/guest/change-of-mind";
import { PRIVACY_TEXT } from "~/components/guest/privacy-text";
import type { OAuthProviderName } from "~/db/schema";
import { PROVIDER_LABELS } from "~/lib/schemas/social-login";
import { SIGNUP_MESSAGES } from "~/lib/schemas/portal";
import { CONNECT_MESSAGES } from "~/services/portal/connect.server";
import { ENTRY_MESSAGES } from "~/services/portal/entry.server";
import { MLANGO_MESSAGES } from "~/services/portal/gateways/mlango.server";
import { PROOF_MESSAGES } from "~/services/portal/phone-proof.server";
import { STK_RESULT_FALLBACK, STK_RESULT_MESSAGES } from "~/services/prepaid/daraja.server";
import { MPESA_MESSAGES } from "~/services/prepaid/mpesa.server";
import { RECEIPT_MESSAGES } from "~/services/prepaid/receipt-claims.server";
import { FREE_PLAN_MESSAGES, HELD_MESSAGES } from "~/services/prepaid/subscriptions.server";
import { VOUCHER_RESULT_MESSAGES } from "~/services/prepaid/vouchers.server";
import { RADIUS_MESSAGES } from "~/services/radius/authorize.server";
import { GUEST_LIMIT_MESSAGES, tryAgainInMessage } from "~/services/rate-limit.server";
import { GUEST_SURVEY_MESSAGES } from "~/services/surveys/guest.server";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const en = {
  /** The page's `<html lang>`. */
  lang: "en",
  /** The switch's link to this language, written in it. */
  name: "English",
  /** The switch's label for screen readers. */
  switchLabel: "Language",

  connect: {
    title: "Get connected to WiFi",
    firstName: "First name",
    middleName: "Middle name (optional)",
    lastName: "Last name",
    email: "Email address",
    phone: "Phone number",
    marketingOptIn: (organization: string) =>
      `Send me news and offers from ${organization} by SMS and e-mail (optional; you can stop them at any time).`,
    connect: "Connect",
    /** The words around the terms' and the privacy notice's links: "By connecting you accept {organisation}'s {terms of use} and {privacy notice}." */
    accept: (organization: string): [string, string, string] => [`By connecting you accept ${organization}'s `, " and ", "."],
    termsOfUse: "terms of use",
    privacyNotice: "privacy notice",
    or: "or",
    heldPlan: ["You have ", " on this device until ", "."] as [string, string, string],
    continueWithPlan: "Continue with my plan",
    voucherCode: "Voucher code",
    useVoucher: "Use voucher",
    continueWith: (provider: OAuthProviderName) => `Continue with ${PROVIDER_LABELS[provider]}`,
    buyWithMpesa: "Buy a plan with M-Pesa",
    currency: "Kes",
    mpesaPhone: "M-Pesa phone number",
    payWithMpesa: "Pay with M-Pesa",
    mpesaPrompt: "You will get a prompt on this phone to enter your M-Pesa PIN.",
    receiptTitle: "Paid already?",
    receiptHint:
      "If you paid to this network's Paybill or Till from the M-Pesa menu, or the prompt never came, type the M-Pesa code from your confirmation SMS.",
    receiptCode: "M-Pesa code",
    useReceipt: "Check my payment",
    sponsored: "Sponsored",
    advertisement: "Advertisement",
    preview: "Preview: guests connect to the Wi-Fi with this form.",
  },

  /** Plans in words: "2 hours, up to 1 GB, for use within 1 day". */
  plans: {
    minutes: (n: number) => `${n} minutes`,
    hours: (n: number) => plural(n, "hour", "hours"),
    days: (n: number) => plural(n, "day", "days"),
    upTo: (size: string) => `up to ${size}`,
    unlimited: "unlimited",
    within: (time: string) => `for use within ${time}`,
    every: { day: "once a day", week: "once a week", validity: "again when it has ended" },
    free: (parts: string) => `Free Wi-Fi: ${parts}.`,
    months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  },

  online: {
    title: "You are online",
    body: "You can now use the internet.",
    until: (time: string) => `Your session lasts until ${time}.`,
    /** A second visit of a connect link that is already online. */
    already: "This device is already online on this connection.",
  },

  waiting: {
    title: "Check your phone",
    enterPin: (phone: string, amount: number, plan: string) => `Enter your M-Pesa PIN on ${phone} to pay Kes ${amount} for ${plan}.`,
    checks: "This page checks by itself every few seconds; you will be connected as soon as the payment arrives.",
    checkNow: "I have paid — check now",
    back: "Back to the Wi-Fi page",
  },

  failed: { title: "Payment not completed", retry: "Try again" },

  /** The page that waits while M-Pesa is asked about a receipt the guest typed (decision 0088). */
  receiptWaiting: {
    title: "Checking your payment",
    body: (code: string) => `We are asking M-Pesa about ${code}. This page checks by itself every few seconds.`,
    checkNow: "Check now",
    back: "Back to the Wi-Fi page",
  },

  /** The waiting page's buttons (cancel, another number) and the page asking for another number. */
  changeOfMind: CHANGE_OF_MIND_TEXT,

  /** Proving a phone with a code sent to it (decision 0086): joining a plan, or a returning guest's new device. */
  proof: {
    planTitle: "This number already has a plan",
    planSent: (phone: string) => `This number already has a plan: we sent a code to ${phone}.`,
    planAsk: "Type the code to use the plan on this device too.",
    payInstead: "Pay for a new plan instead",
    welcomeTitle: "Welcome back",
    welcomeSent: (phone: string) => `Welcome back — enter the code sent to ${phone}.`,
    welcomeAsk: "The code joins this device to your details, your plan and your history.",
    skip: "Continue without the code",
    codeLabel: "Code from the text message",
    confirm: "Continue",
    back: "Back to the Wi-Fi page",
  },

  /** A throttled guest's page (decision 0078); why is in outcomes.limits. */
  limits: { title: GUEST_LIMIT_MESSAGES.title, back: "Back to the Wi-Fi page" },

  /** The privacy notice's link, the data-access pages and the captive-browser note (the notice's own words: portal/privacy-words.ts). */
  privacy: PRIVACY_TEXT,

  pages: {
    couldNotConnect: "We could not connect you",
    notFound: "Not found",
    noSuchPage: "This page does not exist.",
    badRequest: "Bad request",
    tooLong: "Request too long",
    tryAgainTitle: "Please try again",
    paymentNotFound: "Payment not found",
    paymentLinkInvalid: "This payment link is not valid. Reconnect to the Wi-Fi to start again.",
    paymentReceived: "Payment received",
    paymentArrived: (message: string) => `Thank you: your payment arrived. ${message}`,
    survey: "Survey",
    notAuthorized: "This connection is not authorized (any more).",
    networkUnknown: "This Wi-Fi network is not set up in Mlango.",
  },

  social: {
    notOffered: "This way of signing in is not available on this network. Use another way to connect.",
    badState: "This sign-in link is not valid or has expired.",
    failed: (provider: OAuthProviderName) =>
      `Sign-in with ${PROVIDER_LABELS[provider]} did not work. Try again or use another way to connect.`,
    cancelled: (provider: OAuthProviderName) =>
      `Sign-in with ${PROVIDER_LABELS[provider]} was cancelled. Try again or use another way to connect.`,
  },

  survey: {
    intro: "A short survey, if you have a moment. You are online either way.",
    choose: "Choose…",
    scale: (min: number, max: number) => `(${min} = poor, ${max} = excellent)`,
    send: "Send answers",
    skip: "Skip the survey",
  },

  unsubscribe: {
    question: (organization: string) => `Stop messages from ${organization}?`,
    done: (organization: string) => `You will get no more messages from ${organization}.`,
    already: (organization: string) => `You already get no messages from ${organization}.`,
    unknown: "This unsubscribe link is not valid. Use the link in the latest message you received.",
    explain: (organization: string) => `You will no longer get e-mail or SMS offers from ${organization}.`,
    button: "Unsubscribe",
    title: "Unsubscribed",
  },

  /** Messages the services return, as they return them; translated by their English text. */
  outcomes: {
    connect: CONNECT_MESSAGES,
    entry: ENTRY_MESSAGES,
    mlango: MLANGO_MESSAGES,
    signup: SIGNUP_MESSAGES,
    free: FREE_PLAN_MESSAGES,
    held: { none: HELD_MESSAGES.none, timeUsed: HELD_MESSAGES.timeUsed },
    voucher: {
      unknownCode: VOUCHER_RESULT_MESSAGES.unknownCode,
      used: VOUCHER_RESULT_MESSAGES.used,
      noPlan: VOUCHER_RESULT_MESSAGES.noPlan,
    },
    mpesa: MPESA_MESSAGES,
    receipt: RECEIPT_MESSAGES,
    stk: { ...(STK_RESULT_MESSAGES as Record<0 | 1 | 17 | 1019 | 1032 | 1037 | 2001, string>), fallback: STK_RESULT_FALLBACK },
    survey: GUEST_SURVEY_MESSAGES,
    radius: RADIUS_MESSAGES,
    limits: { ...GUEST_LIMIT_MESSAGES, any: "Too many attempts." },
    notice: { termsRequired: PRIVACY_TEXT.termsRequired },
    proof: { noSms: PROOF_MESSAGES.noSms, failed: PROOF_MESSAGES.failed, wrong: PROOF_MESSAGES.wrong },
    tryAgain: "Something went wrong on our side. Please try again in a moment.",
  },

  /** Service messages with a value in them: the English shape (a pattern) and the words around the value. */
  patterns: {
    /** HELD_MESSAGES.full */
    planFull: (n: number) => HELD_MESSAGES.full(n),
    /** VOUCHER_RESULT_MESSAGES.expired */
    voucherExpired: (date: string) => VOUCHER_RESULT_MESSAGES.expired(date),
    /** the end of a throttled guest's message (guestLimitMessage) */
    tryAgainIn: (minutes: number) => tryAgainInMessage(minutes * 60_000),
  },
};

/** The catalogue's shape: every language has every key, its words its own. */
export type Catalogue = Widen<typeof en>;

type Widen<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => Widen<R>
    : T extends readonly unknown[]
      ? { [K in keyof T]: Widen<T[K]> }
      : T extends object
        ? { [K in keyof T]: Widen<T[K]> }
        : T;
