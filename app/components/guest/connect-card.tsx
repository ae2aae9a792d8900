// The connect form: sign-up fields or one Connect button, the plan the device holds, the free plan,
// a voucher box, plans for M-Pesa and the social buttons. Plain forms that post without JavaScript;
// the same card goes on the built-in page and inside an operator's splash page.
import type { FreeEvery, OAuthProviderName } from "~/db/schema";
import { ALL_REQUIRED, PHONE_PREFIX, type SignupFields } from "~/lib/schemas/portal";
import type { GuestBanner } from "~/lib/ads";
import { AdBanner } from "./ad-banner";
import type { OrgClock } from "~/lib/time-zone";
import type { ConnectText, PlanWords } from "./connect-text";
import { GuestAlert } from "./guest-alert";
import { clockText, freePlanText, planSummary, type PlanLimits } from "./plan-text";
import { CaptiveSocialNote, MyDataLink, NoticeChanged, NoticeVersion, type GuestPrivacy } from "./privacy-parts";

/** What the form shows of the guest's connection (the portal's GuestView has these and more). */
export interface ConnectView {
  network: { name: string; termsUrl: string | null; privacyUrl: string | null; organizationName: string };
  customer: {
    firstName: string | null;
    lastName: string | null;
    emailAddress: string | null;
    phoneNumber: string | null;
  };
  needsSignup: boolean;
  /** Which sign-up fields the network asks (all, required, without it). */
  signupFields?: SignupFields;
  providers: readonly OAuthProviderName[];
  freePlan?: (PlanLimits & { every: FreeEvery | null }) | null;
  vouchers?: boolean;
  held: { planName: string; expiresOn: number } | null;
  plansForSale: readonly (PlanLimits & { id: number; name: string; price: number })[];
}

/** A refused submission: the values to show again, each field's errors, a message above the form. */
export interface FormState {
  values?: Record<string, string | boolean | null | undefined>;
  errors?: Record<string, string[]>;
  message?: string;
}

export interface ConnectCardProps {
  view: ConnectView;
  token: string;
  state: FormState;
  /** h1 on the built-in page; inside an operator's page, which has its own h1, h2. */
  heading: "h1" | "h2";
  banner: GuestBanner | null;
  text: ConnectText;
  plans: PlanWords;
  /** The organisation's clock: the held plan's end is shown on it. */
  clock: OrgClock;
  /** The language the guest chose on the page (en, sw), carried by every form and link; null: none chosen. */
  lang: string | null;
  /** The generated privacy notice's link and version, the guest's data, the captive-browser note. */
  privacy?: GuestPrivacy | null;
}

function Field({
  id,
  name,
  label,
  type,
  state,
  autoComplete,
  value = "",
  inputMode,
}: {
  /** Unique on the page, and the key of the field's values and errors in `state`; the name is what the form posts. */
  id?: string;
  name: string;
  label: string;
  type: string;
  state: FormState;
  autoComplete: string;
  value?: string;
  inputMode?: "email" | "tel";
}) {
  const key = id ?? name;
  const errors = state.errors?.[key];
  const raw = state.values?.[key];
  return (
    <>
      <label htmlFor={key}>{label}</label>
      <input
        id={key}
        name={name}
        type={type}
        defaultValue={typeof raw === "string" ? raw : value}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={errors ? "true" : undefined}
        aria-describedby={errors ? `${key}-error` : undefined}
      />
      {errors ? (
        <p className="err" id={`${key}-error`}>
          {errors[0]}
        </p>
      ) : null}
    </>
  );
}

/** The token, and the chosen language when there is one: every form carries both. */
const Token = ({ token, lang }: { token: string; lang: string | null }) => (
  <>
    <input type="hidden" name="token" value={token} />
    {lang ? <input type="hidden" name="lang" value={lang} /> : null}
  </>
);

function Consent({ view, text, privacy }: { view: ConnectView; text: ConnectText; privacy?: GuestPrivacy | null }) {
  const { termsUrl, organizationName } = view.network;
  // The generated notice is on this server, reachable before the guest is online; an operator's own page may not be.
  const privacyUrl = privacy?.noticeHref ?? view.network.privacyUrl;
  const [before, between, after] = text.accept(organizationName);
  return (
    <p className="or">
      <small>
        {before}
        {termsUrl ? <a href={termsUrl}>{text.termsOfUse}</a> : text.termsOfUse}
        {between}
        {privacyUrl ? <a href={privacyUrl}>{text.privacyNotice}</a> : text.privacyNotice}
        {after}
      </small>
    </p>
  );
}

type FormProps = Pick<ConnectCardProps, "view" | "token" | "state" | "text" | "plans" | "clock" | "lang" | "privacy">;

function SignupForm({ view, token, state, text, lang, privacy }: FormProps) {
  const c = view.customer;
  const optIn = state.values?.marketing_opt_in;
  const asks = view.signupFields ?? ALL_REQUIRED;
  return (
    <form method="post" action="/connect" noValidate>
      <Token token={token} lang={lang} />
      <NoticeVersion privacy={privacy} />
      <input type="hidden" name="mode" value="SIGNUP" />
      {c.firstName || asks.names === "off" ? null : (
        <>
          <Field name="first_name" label={text.firstName} type="text" state={state} autoComplete="given-name" />
          <Field name="middle_name" label={text.middleName} type="text" state={state} autoComplete="additional-name" />
        </>
      )}
      {c.lastName || asks.names === "off" ? null : (
        <Field name="last_name" label={text.lastName} type="text" state={state} autoComplete="family-name" />
      )}
      {c.emailAddress || asks.email === "off" ? null : (
        <Field name="email_address" label={text.email} type="email" state={state} autoComplete="email" inputMode="email" />
      )}
      {c.phoneNumber || asks.phone === "off" ? null : (
        <Field name="phone_number" label={text.phone} type="tel" state={state} autoComplete="tel" value={PHONE_PREFIX} inputMode="tel" />
      )}
      <label className="check">
        <input type="checkbox" name="marketing_opt_in" defaultChecked={optIn === true || optIn === "on"} />
        <span>{text.marketingOptIn(view.network.organizationName)}</span>
      </label>
      <button type="submit">{text.connect}</button>
      <Consent view={view} text={text} privacy={privacy} />
    </form>
  );
}

function ClickThroughForm({ view, token, text, lang, privacy }: FormProps) {
  return (
    <>
      <form method="post" action="/connect">
        <Token token={token} lang={lang} />
        <NoticeVersion privacy={privacy} />
        <input type="hidden" name="mode" value="CLICK_THROUGH" />
        <button type="submit">{text.connect}</button>
      </form>
      <Consent view={view} text={text} privacy={privacy} />
    </>
  );
}

function HeldPlanForm({ held, token, text, plans, clock, lang }: FormProps & { held: NonNullable<ConnectView["held"]> }) {
  const [before, middle, after] = text.heldPlan;
  return (
    <form method="post" action="/connect" className="plan">
      <Token token={token} lang={lang} />
      <input type="hidden" name="mode" value="SUBSCRIPTION" />
      <p>
        {before}
        <b>{held.planName}</b>
        {middle}
        {clockText(held.expiresOn, clock, plans)}
        {after}
      </p>
      <button type="submit">{text.continueWithPlan}</button>
    </form>
  );
}

function VoucherForm({ token, state, text, lang }: FormProps) {
  return (
    <form method="post" action="/connect" className="voucher" noValidate>
      <Token token={token} lang={lang} />
      <input type="hidden" name="mode" value="VOUCHER" />
      <Field name="voucher_code" label={text.voucherCode} type="text" state={state} autoComplete="off" />
      <button type="submit" className="alt">
        {text.useVoucher}
      </button>
    </form>
  );
}

/** The plans for sale: one choice each, the phone to pay from, and Pay with M-Pesa. */
function MpesaForm({ view, token, state, text, plans, lang }: FormProps) {
  const only = view.plansForSale.length === 1;
  const chosen = state.values?.plan_id;
  const planError = state.errors?.plan_id?.[0];
  const phone = view.customer.phoneNumber?.startsWith("+254") ? `0${view.customer.phoneNumber.slice(4)}` : PHONE_PREFIX;
  return (
    <form method="post" action="/connect/mpesa" noValidate>
      <Token token={token} lang={lang} />
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend style={{ fontWeight: 600 }}>{text.buyWithMpesa}</legend>
        {view.plansForSale.map((p) => (
          <label className="check" key={p.id}>
            <input type="radio" name="plan_id" value={p.id} defaultChecked={only || String(p.id) === chosen} />
            <span>
              <b>{p.name}</b> — {text.currency} {p.price}
              <br />
              <small>{planSummary(p, plans)}</small>
            </span>
          </label>
        ))}
        {planError ? (
          <p className="err" id="plan_id-error">
            {planError}
          </p>
        ) : null}
      </fieldset>
      <Field
        id="mpesa_phone_number"
        name="phone_number"
        label={text.mpesaPhone}
        type="tel"
        state={state}
        autoComplete="tel"
        value={phone}
        inputMode="tel"
      />
      <button type="submit">{text.payWithMpesa}</button>
      <p className="or">
        <small>{text.mpesaPrompt}</small>
      </p>
    </form>
  );
}

/** "Paid already?": the M-Pesa receipt of a paybill/till payment or of a prompt that never came (decision 0088). */
function ReceiptForm({ token, state, text, lang }: FormProps) {
  return (
    <form method="post" action="/connect/mpesa/receipt" className="receipt" noValidate>
      <Token token={token} lang={lang} />
      <p style={{ fontWeight: 600, margin: "0.5rem 0 0" }}>{text.receiptTitle}</p>
      <p className="or">
        <small>{text.receiptHint}</small>
      </p>
      <Field name="mpesa_receipt" label={text.receiptCode} type="text" state={state} autoComplete="off" />
      <button type="submit" className="alt">
        {text.useReceipt}
      </button>
    </form>
  );
}

const Or = ({ text }: { text: ConnectText }) => <p className="or">{text.or}</p>;

export function ConnectCard(props: ConnectCardProps) {
  const { view, token, state, heading: Heading, banner, text, plans, lang, privacy } = props;
  const socials = view.providers
    .filter((p) => !privacy?.hiddenProviders.includes(p))
    .map((p) => (
      <a key={p} className="btn alt" href={`/splash/${p}/login?token=${encodeURIComponent(token)}${lang ? `&lang=${lang}` : ""}`}>
        {text.continueWith(p)}
      </a>
    ));
  return (
    <>
      <p className="venue">{view.network.name}</p>
      <Heading>{text.title}</Heading>
      {state.message ? <GuestAlert messages={[state.message]} /> : null}
      {privacy ? <NoticeChanged privacy={privacy} /> : null}
      {banner ? <AdBanner banner={banner} text={text} /> : null}
      {view.held ? <HeldPlanForm {...props} held={view.held} /> : null}
      {view.freePlan ? <p className="plan">{freePlanText(view.freePlan, plans)}</p> : null}
      {view.needsSignup ? <SignupForm {...props} /> : <ClickThroughForm {...props} />}
      {view.vouchers ? (
        <>
          <Or text={text} />
          <VoucherForm {...props} />
        </>
      ) : null}
      {view.plansForSale.length ? (
        <>
          <Or text={text} />
          <MpesaForm {...props} />
          <ReceiptForm {...props} />
        </>
      ) : null}
      {socials.length ? (
        <>
          <Or text={text} />
          {socials}
        </>
      ) : null}
      <CaptiveSocialNote privacy={privacy} />
      <MyDataLink privacy={privacy} />
    </>
  );
}
