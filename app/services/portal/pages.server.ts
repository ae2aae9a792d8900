// The built-in guest pages: the connect page, "You are online" and plain
// refusals. Server-rendered strings with one small inline style sheet, no script, no cookie, no
// request to another host; served under a CSP sandbox (router.server.ts). An operator's published
// splash page, when one applies, wraps the same form (splash/render.server.ts).
import type { OAuthProviderName } from "~/db/schema";
import { formatBytes } from "~/lib/format";
import { PHONE_PREFIX } from "~/lib/schemas/portal";
import type { SplashFrame } from "../splash/render.server";
import { CONNECT_MESSAGES, type GuestView } from "./connect.server";
import { html, Html } from "./html.server";

export const PROVIDER_LABELS: Record<OAuthProviderName, string> = {
  fb: "Facebook",
  google: "Google",
  twitter: "X (Twitter)",
  linkedin: "LinkedIn",
  ajira: "Ajira Digital",
};

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#f1f5f9}
main{max-width:26rem;margin:0 auto;padding:1.25rem 1rem 2rem}.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.35rem;margin:.25rem 0 1rem}.venue{color:#475569;font-size:.9rem;margin:0}label{display:block;font-weight:600;font-size:.9rem;margin:.75rem 0 .25rem}
input[type=text],input[type=email],input[type=tel]{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #94a3b8;border-radius:.5rem}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;margin-top:.9rem}.check input{margin-top:.3rem}
button,.btn{display:block;width:100%;margin-top:1rem;padding:.75rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;border:0;border-radius:.5rem;background:#4f46e5;color:#fff}
.btn.alt,button.alt{background:#fff;color:#1e293b;border:1px solid #94a3b8}.err{color:#b91c1c;font-size:.85rem;margin:.25rem 0 0}.alert{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;padding:.75rem;border-radius:.5rem;margin-bottom:.75rem}
.alert p{margin:.2rem 0}.ok{background:#f0fdf4;border-color:#bbf7d0;color:#166534}.or{text-align:center;color:#64748b;font-size:.85rem;margin:1rem 0 0}small{color:#64748b}a{color:#4338ca}.plan{background:#eef2ff;border-radius:.5rem;padding:.5rem .75rem;margin:0 0 .75rem;font-size:.9rem}`;

function layout(title: string, body: Html): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${new Html(STYLE)}</style></head><body><main>${body}</main></body></html>`
    .text;
}

function alert(messages: string[], tone: "error" | "ok" = "error"): Html {
  return html`<div class="alert${tone === "ok" ? " ok" : ""}" role="${tone === "ok" ? "status" : "alert"}">${messages.map((m) => html`<p>${m}</p>`)}</div>`;
}

/** A page with only messages: unknown, expired or used links, refused devices, bad gateway requests. */
export function messagePage(title: string, messages: string[], networkName?: string): string {
  return layout(
    title,
    html`<div class="card">${networkName ? html`<p class="venue">${networkName}</p>` : ""}<h1>${title}</h1>${alert(messages)}</div>`,
  );
}

/** The status of a page refusing a token: unknown 404, expired 410, blocked 403, already authorized 409. */
export function refusalStatus(view: GuestView | null): number {
  return !view ? 404 : view.state === "expired" ? 410 : view.state === "blocked" ? 403 : 409;
}

/** What the guest sees when the token's connection cannot be authorized (any more). */
export function refusalPage(view: GuestView | null, message?: string): string {
  if (view?.state === "authorized")
    return messagePage("Get connected to WiFi", [CONNECT_MESSAGES.alreadyAuthorized, CONNECT_MESSAGES.reconnect], view.network.name);
  if (view?.state === "blocked") return messagePage("Get connected to WiFi", [CONNECT_MESSAGES.blocked], view.network.name);
  if (view?.state === "expired")
    return messagePage("Get connected to WiFi", [CONNECT_MESSAGES.expired, CONNECT_MESSAGES.reconnect], view.network.name);
  return messagePage("Get connected to WiFi", [message ?? CONNECT_MESSAGES.unknown, CONNECT_MESSAGES.reconnect], view?.network.name);
}

export interface FormState {
  values?: Record<string, string | boolean | null | undefined>;
  errors?: Record<string, string[]>;
  message?: string;
}

function field(
  name: string,
  label: string,
  type: string,
  state: FormState,
  extra: { autocomplete: string; value?: string; hint?: string; inputmode?: string },
): Html {
  const errors = state.errors?.[name];
  const raw = state.values?.[name];
  const value = typeof raw === "string" ? raw : (extra.value ?? "");
  return html`<label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" value="${value}" autocomplete="${extra.autocomplete}"${extra.inputmode ? html` inputmode="${extra.inputmode}"` : ""}${errors ? html` aria-invalid="true" aria-describedby="${name}-error"` : ""}>${errors ? html`<p class="err" id="${name}-error">${errors[0]!}</p>` : ""}`;
}

function termsLabel(view: GuestView): Html {
  const { termsUrl, privacyUrl, organizationName } = view.network;
  const terms = termsUrl ? html`<a href="${termsUrl}">terms of use</a>` : html`terms of use`;
  const privacy = privacyUrl ? html`<a href="${privacyUrl}">privacy notice</a>` : html`privacy notice`;
  return html`${organizationName}'s ${terms} and ${privacy}`;
}

/**
 * The connect page: the sign-up form, or one Connect button, and the configured social buttons;
 * inside the operator's splash page when `frame` is given, else on the built-in page.
 */
export function connectPage(
  view: GuestView,
  token: string,
  state: FormState = {},
  frame: SplashFrame | null = null,
  ad: Html | "" = "",
): string {
  // Inside an operator's page the page has its own h1; the form's title is a second-level heading.
  if (frame) return frame.before + connectCard(view, token, state, "h2", ad).text + frame.after;
  return layout("Get connected to WiFi", html`<div class="card">${connectCard(view, token, state, "h1", ad)}</div>`);
}

/** The connect form as a splash page's "View page" shows it: the sign-up fields, going nowhere. */
export function previewCard(): string {
  const view = {
    network: { name: "", termsUrl: null, privacyUrl: null, organizationName: "the network" },
    customer: { firstName: null, middleName: null, lastName: null, emailAddress: null, phoneNumber: null },
    needsSignup: true,
    providers: [],
    held: null,
    plansForSale: [],
  } as unknown as GuestView;
  return connectCard(view, "preview", { message: "Preview: guests connect to the Wi-Fi with this form." }, "h2").text;
}

const minutesText = (m: number) =>
  m % 1440 === 0 ? `${m / 1440} day${m === 1440 ? "" : "s"}` : m % 60 === 0 ? `${m / 60} hour${m === 60 ? "" : "s"}` : `${m} minutes`;
const EVERY_TEXT = { day: "once a day", week: "once a week", validity: "again when it has ended" } as const;

/** "Free Wi-Fi: 30 minutes, up to 500 MB, once a day." */
export function freePlanText(plan: NonNullable<GuestView["freePlan"]>): string {
  const parts = [minutesText(Math.min(plan.timeLimitMinutes ?? Infinity, plan.validityMinutes))];
  if (plan.usageLimitBytes !== null) parts.push(`up to ${formatBytes(plan.usageLimitBytes).replace(".00 ", " ")}`);
  parts.push(EVERY_TEXT[plan.every ?? "day"]);
  return `Free Wi-Fi: ${parts.join(", ")}.`;
}

/** `ad`: a banner link (ads/serving.server.ts), shown under the title. */
function connectCard(view: GuestView, token: string, state: FormState, heading: "h1" | "h2", ad: Html | "" = ""): Html {
  const c = view.customer;
  const socials = view.providers.map(
    (p) => html`<a class="btn alt" href="/splash/${p}/login?token=${encodeURIComponent(token)}">Continue with ${PROVIDER_LABELS[p]}</a>`,
  );
  const checked = (name: string) => (state.values?.[name] === true || state.values?.[name] === "on" ? html` checked` : "");
  const form = view.needsSignup
    ? html`<form method="post" action="/connect" novalidate><input type="hidden" name="token" value="${token}"><input type="hidden" name="mode" value="SIGNUP">
${c.firstName ? "" : field("first_name", "First name", "text", state, { autocomplete: "given-name" })}
${c.firstName ? "" : field("middle_name", "Middle name (optional)", "text", state, { autocomplete: "additional-name" })}
${c.lastName ? "" : field("last_name", "Last name", "text", state, { autocomplete: "family-name" })}
${c.emailAddress ? "" : field("email_address", "Email address", "email", state, { autocomplete: "email", inputmode: "email" })}
${c.phoneNumber ? "" : field("phone_number", "Phone number", "tel", state, { autocomplete: "tel", value: PHONE_PREFIX, inputmode: "tel" })}
<label class="check"><input type="checkbox" name="marketing_opt_in"${checked("marketing_opt_in")}><span>Send me news and offers from ${view.network.organizationName} by SMS and e-mail (optional; you can stop them at any time).</span></label>
<button type="submit">Connect</button><p class="or"><small>By connecting you accept ${termsLabel(view)}.</small></p></form>`
    : html`<form method="post" action="/connect"><input type="hidden" name="token" value="${token}"><input type="hidden" name="mode" value="CLICK_THROUGH"><button type="submit">Connect</button></form><p class="or"><small>By connecting you accept ${termsLabel(view)}.</small></p>`;
  const title = heading === "h1" ? html`<h1>Get connected to WiFi</h1>` : html`<h2>Get connected to WiFi</h2>`;
  const held = view.held
    ? html`<form method="post" action="/connect" class="plan"><input type="hidden" name="token" value="${token}"><input type="hidden" name="mode" value="SUBSCRIPTION"><p>You have <b>${view.held.planName}</b> on this device until ${clock(view.held.expiresOn)}.</p><button type="submit">Continue with my plan</button></form>`
    : "";
  const buy = view.plansForSale.length ? mpesaForm(view, token, state) : "";
  const free = view.freePlan ? html`<p class="plan">${freePlanText(view.freePlan)}</p>` : "";
  const voucher = view.vouchers
    ? html`<form method="post" action="/connect" class="voucher" novalidate><input type="hidden" name="token" value="${token}"><input type="hidden" name="mode" value="VOUCHER">${field("voucher_code", "Voucher code", "text", state, { autocomplete: "off", hint: "" })}<button type="submit" class="alt">Use voucher</button></form>`
    : "";
  return html`<p class="venue">${view.network.name}</p>${title}${state.message ? alert([state.message]) : ""}${ad}${held}${free}${form}${voucher ? html`<p class="or">or</p>${voucher}` : ""}${buy ? html`<p class="or">or</p>${buy}` : ""}${socials.length ? html`<p class="or">or</p>${socials}` : ""}`;
}

/** "14:05 UTC" today, else "26 Nov 14:05 UTC". */
function clock(at: number): string {
  const iso = new Date(at).toISOString();
  const sameDay = iso.slice(0, 10) === new Date().toISOString().slice(0, 10);
  return sameDay ? `${iso.slice(11, 16)} UTC` : `${new Date(at).toUTCString().slice(5, 11)} ${iso.slice(11, 16)} UTC`;
}

/** "2 hours, up to 1 GB, for use within 1 day" */
export function planSummary(plan: { timeLimitMinutes: number | null; usageLimitBytes: number | null; validityMinutes: number }): string {
  const parts: string[] = [];
  if (plan.timeLimitMinutes !== null) parts.push(minutesText(plan.timeLimitMinutes));
  if (plan.usageLimitBytes !== null) parts.push(`up to ${formatBytes(plan.usageLimitBytes).replace(".00 ", " ")}`);
  if (parts.length === 0) parts.push("unlimited");
  parts.push(`for use within ${minutesText(plan.validityMinutes)}`);
  return parts.join(", ");
}

/** The plans for sale: one choice each, the phone to pay from, and Pay with M-Pesa. */
function mpesaForm(view: GuestView, token: string, state: FormState): Html {
  const only = view.plansForSale.length === 1;
  const chosen = state.values?.plan_id;
  const planError = state.errors?.plan_id?.[0];
  const phone = view.customer.phoneNumber?.startsWith("+254") ? `0${view.customer.phoneNumber.slice(4)}` : PHONE_PREFIX;
  const choices = view.plansForSale.map(
    (p) =>
      html`<label class="check"><input type="radio" name="plan_id" value="${p.id}"${only || String(p.id) === chosen ? html` checked` : ""}><span><b>${p.name}</b> — Kes ${p.price}<br><small>${planSummary(p)}</small></span></label>`,
  );
  return html`<form method="post" action="/connect/mpesa" novalidate><input type="hidden" name="token" value="${token}"><fieldset style="border:0;padding:0;margin:0"><legend style="font-weight:600">Buy a plan with M-Pesa</legend>${choices}${planError ? html`<p class="err" id="plan_id-error">${planError}</p>` : ""}</fieldset>${field("phone_number", "M-Pesa phone number", "tel", state, { autocomplete: "tel", value: phone, inputmode: "tel" })}<button type="submit">Pay with M-Pesa</button><p class="or"><small>You will get a prompt on this phone to enter your M-Pesa PIN.</small></p></form>`;
}

/**
 * While the guest's phone shows the M-Pesa prompt: a page that reloads itself every few seconds
 * until the payment ends — by a `Refresh` header (mpesa-routes.server.ts), which works without
 * JavaScript; a meta refresh would not run under the guest pages' CSP sandbox (no allow-scripts).
 */
export function waitingPage(
  networkName: string,
  token: string,
  paymentId: number,
  purchase: { planName: string; amount: number; phone: string },
): string {
  const self = `/connect/mpesa/wait?token=${encodeURIComponent(token)}&payment=${paymentId}`;
  const phone = purchase.phone.startsWith("254") ? `0${purchase.phone.slice(3)}` : purchase.phone;
  return layout(
    "Check your phone",
    html`<div class="card" aria-live="polite"><p class="venue">${networkName}</p><h1>Check your phone</h1>${alert([`Enter your M-Pesa PIN on ${phone} to pay Kes ${purchase.amount} for ${purchase.planName}.`, "This page checks by itself every few seconds; you will be connected as soon as the payment arrives."], "ok")}<a class="btn alt" href="${self}">I have paid — check now</a><p class="or"><a href="/connect?token=${encodeURIComponent(token)}">Back to the Wi-Fi page</a></p></div>`,
  );
}

export const WAIT_REFRESH_SECONDS = 3;

/** The payment did not go through: why, in plain words, and the way back. */
export function paymentFailedPage(networkName: string | null, token: string, message: string): string {
  return layout(
    "Payment not completed",
    html`<div class="card">${networkName ? html`<p class="venue">${networkName}</p>` : ""}<h1>Payment not completed</h1>${alert([message])}<a class="btn" href="/connect?token=${encodeURIComponent(token)}">Try again</a></div>`,
  );
}

/** Where a guest lands when neither the access point, the network nor the gateway names a page. */
/** `extra`: shown under the card (a survey offer, surveys/guest-routes.server.ts). */
export function onlinePage(view: GuestView | null, sessionEndsAt: number | null, extra: Html | null = null): string {
  const until = sessionEndsAt ? `Your session lasts until ${new Date(sessionEndsAt).toISOString().slice(11, 16)} UTC.` : "";
  return layout(
    "You are online",
    html`<div class="card">${view ? html`<p class="venue">${view.network.name}</p>` : ""}<h1>You are online</h1>${alert(["You can now use the internet.", ...(until ? [until] : [])], "ok")}</div>${extra ?? ""}`,
  );
}
