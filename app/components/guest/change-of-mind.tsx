// The guest changes their mind about an M-Pesa payment (issue 34, item 5), without JavaScript:
// buttons on the waiting page (plain forms posting the connection token; no text field there, as
// the page reloads itself every few seconds), and the page asking for another number.
import { GuestAlert, VenueName } from "./guest-alert";

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

/** Under the waiting page's check link: stop waiting, or start again with another number. */
export function WaitingActions({ action, token, paymentId }: { action: string; token: string; paymentId: number }) {
  return (
    <form method="post" action={action} className="change-of-mind">
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="payment" value={String(paymentId)} />
      <button type="submit" name="intent" value="change" className="alt">
        {CHANGE_OF_MIND_TEXT.otherNumber}
      </button>
      <button type="submit" name="intent" value="cancel" className="alt">
        {CHANGE_OF_MIND_TEXT.cancel}
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
}: {
  networkName: string;
  action: string;
  token: string;
  plan: { id: number; name: string; amount: number };
  /** what to show in the field (the number typed last, 07…) */
  phone: string;
  error: string | null;
  backHref: string;
}) {
  return (
    <div className="card">
      <VenueName name={networkName} />
      <h1>{CHANGE_OF_MIND_TEXT.changeTitle}</h1>
      {error ? <GuestAlert messages={[error]} /> : null}
      <p className="plan">{CHANGE_OF_MIND_TEXT.changeIntro(plan.name, plan.amount)}</p>
      <form method="post" action={action}>
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="plan_id" value={String(plan.id)} />
        <label htmlFor="phone_number">{CHANGE_OF_MIND_TEXT.phoneLabel}</label>
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
        <button type="submit">{CHANGE_OF_MIND_TEXT.pay(plan.amount)}</button>
      </form>
      <p className="or">
        <a href={backHref}>{CHANGE_OF_MIND_TEXT.back}</a>
      </p>
    </div>
  );
}
