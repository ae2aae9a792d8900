// The guest changes their mind about an M-Pesa payment (issue 34, item 5), without JavaScript:
// buttons on the waiting page (plain forms posting the connection token; no text field there, as
// the page reloads itself every few seconds), and the page asking for another number.
import { GuestAlert, VenueName } from "./guest-alert";

/** In English; the guest catalogues (app/guest/i18n) carry it in each language as `changeOfMind`. */
export const CHANGE_OF_MIND_TEXT = {
  otherNumber: "Use another number",
  cancel: "Cancel this payment",
  changeTitle: "Pay with another number",
  changeIntro: (planName: string, amount: number) =>
    `Type the Safaricom number to send the M-Pesa prompt for ${planName} (Kes ${amount}) to.`,
  phoneLabel: "M-Pesa phone number",
  pay: (amount: number) => `Pay Kes ${amount}`,
  back: "Back to the Wi-Fi page",
} as const;

export type ChangeOfMindText = {
  [K in keyof typeof CHANGE_OF_MIND_TEXT]: (typeof CHANGE_OF_MIND_TEXT)[K] extends string ? string : (typeof CHANGE_OF_MIND_TEXT)[K];
};

/** The guest's chosen language, carried by a form (nothing when none was chosen). */
const Lang = ({ lang }: { lang: string | null }) => (lang ? <input type="hidden" name="lang" value={lang} /> : null);

/** Under the waiting page's check link: stop waiting, or start again with another number. */
export function WaitingActions({
  action,
  token,
  paymentId,
  text,
  lang,
}: {
  action: string;
  token: string;
  paymentId: number;
  text: ChangeOfMindText;
  lang: string | null;
}) {
  return (
    <form method="post" action={action} className="change-of-mind">
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="payment" value={String(paymentId)} />
      <Lang lang={lang} />
      <button type="submit" name="intent" value="change" className="alt">
        {text.otherNumber}
      </button>
      <button type="submit" name="intent" value="cancel" className="alt">
        {text.cancel}
      </button>
    </form>
  );
}

/** After "Use another number": the plan stays, the number is typed again, and Pay sends a new prompt. */
export function ChangeNumberCard({
  networkName,
  action,
  token,
  plan,
  phone,
  error,
  backHref,
  text,
  lang,
  heading: Heading = "h1",
}: {
  networkName: string;
  action: string;
  token: string;
  plan: { id: number; name: string; amount: number };
  /** what to show in the field (the number typed last, 07…) */
  phone: string;
  error: string | null;
  backHref: string;
  text: ChangeOfMindText;
  lang: string | null;
  heading?: "h1" | "h2";
}) {
  return (
    <>
      <VenueName name={networkName} />
      <Heading>{text.changeTitle}</Heading>
      {error ? <GuestAlert messages={[error]} /> : null}
      <p className="plan">{text.changeIntro(plan.name, plan.amount)}</p>
      <form method="post" action={action}>
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="plan_id" value={String(plan.id)} />
        <Lang lang={lang} />
        <label htmlFor="phone_number">{text.phoneLabel}</label>
        <input
          id="phone_number"
          name="phone_number"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          required
          defaultValue={phone}
          aria-invalid={error ? true : undefined}
        />
        <button type="submit">{text.pay(plan.amount)}</button>
      </form>
      <p className="or">
        <a href={backHref}>{text.back}</a>
      </p>
    </>
  );
}
