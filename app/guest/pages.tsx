// The guest pages as the guest routes send them: React components (app/components/guest/) rendered
// to static markup on the server, with no client JavaScript (decision 0071). Every builder answers
// the page's HTML; the routes set the headers (CSP sandbox, no-referrer, no-store). An operator's
// published splash page, when one applies, is a frame (splash/render.server.ts) around the same
// connect card.
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ConnectCard, type FormState } from "~/components/guest/connect-card";
import { CONNECT_TEXT } from "~/components/guest/connect-text";
import { GatewayLoginDocument } from "~/components/guest/gateway-login";
import { GuestDocument } from "~/components/guest/guest-document";
import { MessageCard } from "~/components/guest/message-card";
import { OnlineCard } from "~/components/guest/online-card";
import { MyDataLinks, type GuestPrivacy } from "~/components/guest/privacy-parts";
import { PaymentFailedCard, WaitingCard, type WaitingPurchase } from "~/components/guest/payment-cards";
import type { GuestBanner } from "~/lib/ads";
import { CONNECT_MESSAGES, type GuestView } from "~/services/portal/connect.server";
import { LOGIN_SCRIPT, type LoginForm } from "~/services/radius/login.server";
import type { SplashFrame } from "~/services/splash/render.server";
import type { Html } from "./html";

export type { FormState } from "~/components/guest/connect-card";
export { freePlanText, planSummary } from "~/components/guest/plan-text";
export { PROVIDER_LABELS } from "~/lib/schemas/social-login";

const DOCTYPE = "<!doctype html>";
const documentHtml = (element: ReactElement) => DOCTYPE + renderToStaticMarkup(element);
const page = (title: string, body: ReactElement) => documentHtml(<GuestDocument title={title}>{body}</GuestDocument>);

/** A page with only messages: unknown, expired or used links, refused devices, bad gateway requests. */
export function messagePage(title: string, messages: string[], networkName?: string): string {
  return page(title, <MessageCard title={title} messages={messages} networkName={networkName} />);
}

/** The status of a page refusing a token: unknown 404, expired 410, blocked 403, already authorized 409. */
export function refusalStatus(view: GuestView | null): number {
  return !view ? 404 : view.state === "expired" ? 410 : view.state === "blocked" ? 403 : 409;
}

/** What the guest sees when the token's connection cannot be authorized (any more). */
export function refusalPage(view: GuestView | null, message?: string): string {
  const title = CONNECT_TEXT.title;
  if (view?.state === "authorized")
    return messagePage(title, [CONNECT_MESSAGES.alreadyAuthorized, CONNECT_MESSAGES.reconnect], view.network.name);
  if (view?.state === "blocked") return messagePage(title, [CONNECT_MESSAGES.blocked], view.network.name);
  if (view?.state === "expired") return messagePage(title, [CONNECT_MESSAGES.expired, CONNECT_MESSAGES.reconnect], view.network.name);
  return messagePage(title, [message ?? CONNECT_MESSAGES.unknown, CONNECT_MESSAGES.reconnect], view?.network.name);
}

/**
 * The connect page: the sign-up form, or one Connect button, and the configured social buttons;
 * inside the operator's splash page when `frame` is given, else on the built-in page. `ad`: the
 * banner for this guest (ads/serving.server.ts), shown under the title.
 */
export function connectPage(
  view: GuestView,
  token: string,
  state: FormState = {},
  frame: SplashFrame | null = null,
  ad: GuestBanner | null = null,
  privacy: GuestPrivacy | null = null,
): string {
  const card = (heading: "h1" | "h2") => (
    <ConnectCard view={view} token={token} state={state} heading={heading} banner={ad} text={CONNECT_TEXT} privacy={privacy} />
  );
  // Inside an operator's page the page has its own h1; the form's title is a second-level heading.
  if (frame) return frame.before + renderToStaticMarkup(card("h2")) + frame.after;
  return page(CONNECT_TEXT.title, <div className="card">{card("h1")}</div>);
}

/** The connect form as a splash page's "View page" shows it: the sign-up fields, going nowhere. */
export function previewCard(): string {
  const view = {
    network: { name: "", termsUrl: null, privacyUrl: null, organizationName: "the network" },
    customer: { firstName: null, lastName: null, emailAddress: null, phoneNumber: null },
    needsSignup: true,
    providers: [],
    held: null,
    plansForSale: [],
  };
  const state = { message: "Preview: guests connect to the Wi-Fi with this form." };
  return renderToStaticMarkup(<ConnectCard view={view} token="preview" state={state} heading="h2" banner={null} text={CONNECT_TEXT} />);
}

/** Seconds between the waiting page's checks (its `Refresh` header, guest M-Pesa routes). */
export const WAIT_REFRESH_SECONDS = 3;

/** While the guest's phone shows the M-Pesa prompt: the page that checks until the payment ends. */
export function waitingPage(networkName: string, token: string, paymentId: number, purchase: WaitingPurchase): string {
  const checkHref = `/connect/mpesa/wait?token=${encodeURIComponent(token)}&payment=${paymentId}`;
  const backHref = `/connect?token=${encodeURIComponent(token)}`;
  return page("Check your phone", <WaitingCard networkName={networkName} checkHref={checkHref} backHref={backHref} purchase={purchase} />);
}

/** The payment did not go through: why, in plain words, and the way back. */
export function paymentFailedPage(networkName: string | null, token: string, message: string): string {
  const retryHref = `/connect?token=${encodeURIComponent(token)}`;
  return page("Payment not completed", <PaymentFailedCard networkName={networkName} message={message} retryHref={retryHref} />);
}

/**
 * Where a guest lands when neither the access point, the network nor the gateway names a page.
 * `extra`: markup shown under the card (the survey offer, written with ./html until it is a component).
 */
export function onlinePage(view: GuestView | null, sessionEndsAt: number | null, extra: Html | null = null, token?: string | null): string {
  return page(
    "You are online",
    <>
      <OnlineCard networkName={view ? view.network.name : null} sessionEndsAt={sessionEndsAt} />
      {extra ? <div dangerouslySetInnerHTML={{ __html: extra.text }} /> : null}
      {view && token ? <MyDataLinks token={token} /> : null}
    </>,
  );
}

/** The page that logs the guest in at a RADIUS gateway: the form submits itself (LOGIN_CSP allows its script). */
export function loginPage(form: LoginForm, networkName: string): string {
  return documentHtml(<GatewayLoginDocument form={form} networkName={networkName} script={LOGIN_SCRIPT} />);
}
