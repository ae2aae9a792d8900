// The guest pages as the guest routes send them: React components (app/components/guest/) rendered
// to static markup on the server, with no client JavaScript (decision 0071). Every builder answers
// the page's HTML; the routes set the headers (CSP sandbox, no-referrer, no-store). Every page is in
// the guest's language (a Look's speech, decision 0079) and, when the network has one, inside the
// operator's published splash page (a frame, splash/render.server.ts) around the same cards.
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ConnectCard, type FormState } from "~/components/guest/connect-card";
import { GatewayLoginDocument } from "~/components/guest/gateway-login";
import { GuestDocument, LanguageSwitch } from "~/components/guest/guest-document";
import { MessageCard } from "~/components/guest/message-card";
import { OnlineCard } from "~/components/guest/online-card";
import { MyDataLinks, type GuestPrivacy } from "~/components/guest/privacy-parts";
import { PaymentFailedCard, ReceiptWaitingCard, WaitingCard, type WaitingPurchase } from "~/components/guest/payment-cards";
import { ChangeNumberCard, WaitingActions } from "~/components/guest/change-of-mind";
import { TooManyAttemptsCard } from "~/components/guest/limit-card";
import { ProofCard } from "~/components/guest/proof-card";
import type { GuestBanner } from "~/lib/ads";
import { UTC_CLOCK, type OrgClock } from "~/lib/time-zone";
import { CONNECT_MESSAGES, type GuestView } from "~/services/portal/connect.server";
import { LOGIN_SCRIPT, type LoginForm } from "~/services/radius/login.server";
import type { SplashFrame } from "~/services/splash/render.server";
import type { Html } from "./html";
import { catalogue, ENGLISH, say, withLang, type Speech } from "./i18n";

export type { FormState } from "~/components/guest/connect-card";
export { freePlanText, planSummary } from "~/components/guest/plan-text";
export { PROVIDER_LABELS } from "~/lib/schemas/social-login";

/** How a page looks: its language, the operator's frame (null: the built-in page), the clock its times are on, and its own URL for the language switch. */
export interface Look {
  speech: Speech;
  frame: SplashFrame | null;
  clock: OrgClock;
  /** This page's address without `lang` (null: a page that cannot be asked for again, such as a gateway's entry). */
  here: string | null;
}

/** English, the built-in page, UTC, no switch: for what no guest request is behind (previews, tests). */
export const PLAIN: Look = { speech: ENGLISH, frame: null, clock: UTC_CLOCK, here: null };

/** A page without a token's guest behind it (a gateway's entry refused, a bad request): the language only. */
export const plainLook = (speech: Speech, here: string | null = null): Look => ({ ...PLAIN, speech, here });

const DOCTYPE = "<!doctype html>";
const documentHtml = (element: ReactElement) => DOCTYPE + renderToStaticMarkup(element);

function languageSwitch(look: Look): ReactElement | null {
  if (!look.here) return null;
  const other = look.speech.lang === "sw" ? "en" : "sw";
  return <LanguageSwitch link={{ href: withLang(look.here, other), lang: other, name: catalogue(other).name }} />;
}

/** The frame's document in the guest's language (frames are written with lang="en" at publish). */
const framed = (frame: SplashFrame, lang: string) =>
  lang === "en" ? frame.before : frame.before.replace('<html lang="en">', `<html lang="${lang}">`);

/** A card on the built-in page (with its h1), or inside the operator's frame (with an h2: the page has its own h1). */
function page(title: string, look: Look, card: (heading: "h1" | "h2") => ReactElement, extra: Html | null = null, form = false): string {
  const lang = look.speech.lang;
  const extraMarkup = extra ? <div dangerouslySetInnerHTML={{ __html: extra.text }} /> : null;
  if (look.frame) {
    // Templates hide the connect form's own h2 (they title it themselves); every other page's title shows.
    const body = form ? card("h2") : <div className="mlango-page">{card("h2")}</div>;
    return (
      framed(look.frame, lang) +
      renderToStaticMarkup(
        <>
          {languageSwitch(look)}
          {body}
          {extraMarkup}
        </>,
      ) +
      look.frame.after
    );
  }
  return documentHtml(
    <GuestDocument title={title} lang={lang}>
      <div className="card">
        {languageSwitch(look)}
        {card("h1")}
      </div>
      {extraMarkup}
    </GuestDocument>,
  );
}

/** A page with only messages: unknown, expired or used links, refused devices, bad gateway requests. Messages from services are translated. */
export function messagePage(title: string, messages: string[], networkName?: string, look: Look = PLAIN): string {
  const said = messages.map((m) => say(look.speech.lang, m));
  return page(title, look, (heading) => <MessageCard title={title} messages={said} networkName={networkName} heading={heading} />);
}

/** The status of a page refusing a token: unknown 404, expired 410, blocked 403, already authorized 409. */
export function refusalStatus(view: GuestView | null): number {
  return !view ? 404 : view.state === "expired" ? 410 : view.state === "blocked" ? 403 : 409;
}

/**
 * What the guest sees when the token's connection cannot be authorized (any more). A connection
 * already authorized whose session still runs (`online`: its end) is good news: the guest is online.
 */
export function refusalPage(view: GuestView | null, message?: string, look: Look = PLAIN, online: number | null = null): string {
  const t = look.speech.t;
  const title = t.connect.title;
  const network = view?.network.name;
  if (view?.state === "authorized" && online !== null) {
    const o = t.outcomes.connect;
    return page(t.online.title, look, (heading) => (
      <OnlineCard
        networkName={network ?? null}
        sessionEndsAt={online}
        clock={look.clock}
        text={t.online}
        plans={t.plans}
        heading={heading}
        before={[o.alreadyAuthorized]}
        after={[o.reconnect]}
      />
    ));
  }
  if (view?.state === "authorized")
    return messagePage(title, [CONNECT_MESSAGES.alreadyAuthorized, CONNECT_MESSAGES.reconnect], network, look);
  if (view?.state === "blocked") return messagePage(title, [CONNECT_MESSAGES.blocked], network, look);
  if (view?.state === "expired") return messagePage(title, [CONNECT_MESSAGES.expired, CONNECT_MESSAGES.reconnect], network, look);
  return messagePage(title, [message ?? CONNECT_MESSAGES.unknown, CONNECT_MESSAGES.reconnect], network, look);
}

/**
 * The connect page: the sign-up form, or one Connect button, and the configured social buttons;
 * inside the operator's splash page when the look has a frame, else on the built-in page. `ad`: the
 * banner for this guest (ads/serving.server.ts), shown under the title.
 */
export function connectPage(
  view: GuestView,
  token: string,
  state: FormState = {},
  look: Look = PLAIN,
  ad: GuestBanner | null = null,
  privacy: GuestPrivacy | null = null,
): string {
  const { t, lang, carried } = look.speech;
  const said: FormState = {
    ...state,
    message: state.message === undefined ? undefined : say(lang, state.message),
    errors: state.errors && Object.fromEntries(Object.entries(state.errors).map(([k, v]) => [k, v.map((m) => say(lang, m))])),
  };
  return page(
    t.connect.title,
    look,
    (heading) => (
      <ConnectCard
        view={view}
        token={token}
        state={said}
        heading={heading}
        banner={ad}
        text={t.connect}
        plans={t.plans}
        clock={look.clock}
        lang={carried}
        privacy={privacy}
      />
    ),
    null,
    true,
  );
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
  const t = ENGLISH.t;
  const state = { message: t.connect.preview };
  return renderToStaticMarkup(
    <ConnectCard
      view={view}
      token="preview"
      state={state}
      heading="h2"
      banner={null}
      text={t.connect}
      plans={t.plans}
      clock={UTC_CLOCK}
      lang={null}
    />,
  );
}

/** Seconds between the waiting page's checks (its `Refresh` header, guest M-Pesa routes). */
export const WAIT_REFRESH_SECONDS = 3;

/** The waiting page's own address (its Refresh header and its "check now" link), with the carried language. */
export const waitingHref = (token: string, paymentId: number, carried: string | null = null) =>
  `/connect/mpesa/wait?token=${encodeURIComponent(token)}&payment=${paymentId}${carried ? `&lang=${carried}` : ""}`;

/** While the guest's phone shows the M-Pesa prompt: the page that checks until the payment ends. */
export function waitingPage(networkName: string, token: string, paymentId: number, purchase: WaitingPurchase, look: Look = PLAIN): string {
  const { t, carried } = look.speech;
  const checkHref = waitingHref(token, paymentId, carried);
  const backHref = withLang(`/connect?token=${encodeURIComponent(token)}`, carried);
  return page(t.waiting.title, look, (heading) => (
    <WaitingCard networkName={networkName} checkHref={checkHref} backHref={backHref} purchase={purchase} text={t.waiting} heading={heading}>
      <WaitingActions action="/connect/mpesa/cancel" token={token} paymentId={paymentId} text={t.changeOfMind} lang={carried} />
    </WaitingCard>
  ));
}

/** The receipt waiting page's own address (its Refresh header and its "check now" link), with the carried language. */
export const receiptWaitingHref = (token: string, claimId: number, carried: string | null = null) =>
  `/connect/mpesa/receipt/wait?token=${encodeURIComponent(token)}&claim=${claimId}${carried ? `&lang=${carried}` : ""}`;

/** While M-Pesa is asked about the receipt the guest typed (decision 0088). */
export function receiptWaitingPage(
  networkName: string | null,
  token: string,
  claimId: number,
  receipt: string,
  look: Look = PLAIN,
): string {
  const { t, carried } = look.speech;
  const backHref = withLang(`/connect?token=${encodeURIComponent(token)}`, carried);
  return page(t.receiptWaiting.title, look, (heading) => (
    <ReceiptWaitingCard
      networkName={networkName}
      receipt={receipt}
      checkHref={receiptWaitingHref(token, claimId, carried)}
      backHref={backHref}
      text={t.receiptWaiting}
      heading={heading}
    />
  ));
}

/** The payment did not go through: why, in plain words, and the way back. */
export function paymentFailedPage(networkName: string | null, token: string, message: string, look: Look = PLAIN): string {
  const { t, lang, carried } = look.speech;
  const retryHref = withLang(`/connect?token=${encodeURIComponent(token)}`, carried);
  return page(t.failed.title, look, (heading) => (
    <PaymentFailedCard networkName={networkName} message={say(lang, message)} retryHref={retryHref} text={t.failed} heading={heading} />
  ));
}

/**
 * Where a guest lands when neither the access point, the network nor the gateway names a page.
 * `extra`: markup shown under the card (the survey offer, written with ./html until it is a component).
 */
export function onlinePage(
  view: GuestView | null,
  sessionEndsAt: number | null,
  extra: Html | null = null,
  look: Look = PLAIN,
  token: string | null = null,
): string {
  const t = look.speech.t;
  return page(
    t.online.title,
    look,
    (heading) => (
      <>
        <OnlineCard
          networkName={view ? view.network.name : null}
          sessionEndsAt={sessionEndsAt}
          clock={look.clock}
          text={t.online}
          plans={t.plans}
          heading={heading}
        />
        {view && token ? <MyDataLinks token={token} text={t.privacy} lang={look.speech.carried} /> : null}
      </>
    ),
    extra,
  );
}

/** The page that logs the guest in at a RADIUS gateway: the form submits itself (LOGIN_CSP allows its script). */
export function loginPage(form: LoginForm, networkName: string): string {
  return documentHtml(<GatewayLoginDocument form={form} networkName={networkName} script={LOGIN_SCRIPT} />);
}

/** After "Use another number" on the waiting page: the same plan, the number typed again (Pay posts to /connect/mpesa). */
export function changeNumberPage(
  networkName: string,
  token: string,
  plan: { id: number; name: string; amount: number },
  phone: string,
  error: string | null = null,
  look: Look = PLAIN,
): string {
  const { t, lang, carried } = look.speech;
  const backHref = withLang(`/connect?token=${encodeURIComponent(token)}`, carried);
  return page(t.changeOfMind.changeTitle, look, (heading) => (
    <ChangeNumberCard
      heading={heading}
      networkName={networkName}
      action="/connect/mpesa"
      token={token}
      plan={plan}
      phone={phone}
      error={error === null ? null : say(lang, error)}
      backHref={backHref}
      text={t.changeOfMind}
      lang={carried}
    />
  ));
}

/** A throttled guest (status 429, decision 0078): why, when to try again, and the way back to the connect page. */
export function tooManyAttemptsPage(networkName: string | null, token: string | null, message: string, look: Look = PLAIN): string {
  const { t, lang, carried } = look.speech;
  const backHref = token ? withLang(`/connect?token=${encodeURIComponent(token)}`, carried) : null;
  return page(t.limits.title, look, (heading) => (
    <TooManyAttemptsCard
      heading={heading}
      networkName={networkName}
      title={t.limits.title}
      message={say(lang, message)}
      backHref={backHref}
      backLabel={t.limits.back}
    />
  ));
}

/**
 * A code was sent to the phone (decision 0086): "plan" when another device typed the number a plan
 * was paid from, "welcome" when a returning guest's new device signs up with their proved number.
 * The form posts `fields` again with the code (or `proof=skip`).
 */
export function proofPage(
  kind: "plan" | "welcome",
  at: { networkName: string; token: string; phone: string; action: string; fields: Record<string, string> },
  error: string | null,
  look: Look = PLAIN,
): string {
  const { t, lang, carried } = look.speech;
  const p = t.proof;
  const title = kind === "plan" ? p.planTitle : p.welcomeTitle;
  return page(title, look, (heading) => (
    <ProofCard
      heading={heading}
      networkName={at.networkName}
      title={title}
      sent={kind === "plan" ? p.planSent(at.phone) : p.welcomeSent(at.phone)}
      ask={kind === "plan" ? p.planAsk : p.welcomeAsk}
      action={at.action}
      fields={carried ? { ...at.fields, lang: carried } : at.fields}
      codeLabel={p.codeLabel}
      confirm={p.confirm}
      skip={kind === "plan" ? p.payInstead : p.skip}
      error={error === null ? null : say(lang, error)}
      backHref={withLang(`/connect?token=${encodeURIComponent(at.token)}`, carried)}
      backLabel={p.back}
    />
  ));
}
