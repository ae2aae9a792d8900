// The M-Pesa pages after Pay: waiting for the PIN, and a payment that did not go through.
import type { ReactNode } from "react";
import type { FailedText, WaitingText } from "./connect-text";
import { GuestAlert, VenueName } from "./guest-alert";

export interface WaitingPurchase {
  planName: string;
  amount: number;
  /** 2547…, as Daraja has it */
  phone: string;
}

/**
 * While the guest's phone shows the M-Pesa prompt. The page reloads itself by a `Refresh` header
 * (which works without JavaScript; a meta refresh would not run under the CSP sandbox), and the
 * link checks at once.
 */
export function WaitingCard({
  networkName,
  checkHref,
  backHref,
  purchase,
  children,
  text,
  heading: Heading = "h1",
}: {
  networkName: string;
  checkHref: string;
  backHref: string;
  purchase: WaitingPurchase;
  /** below the check link: what else the guest can do (change-of-mind.tsx) */
  children?: ReactNode;
  text: WaitingText;
  heading?: "h1" | "h2";
}) {
  const phone = purchase.phone.startsWith("254") ? `0${purchase.phone.slice(3)}` : purchase.phone;
  return (
    <div aria-live="polite">
      <VenueName name={networkName} />
      <Heading>{text.title}</Heading>
      <GuestAlert messages={[text.enterPin(phone, purchase.amount, purchase.planName), text.checks]} tone="ok" />
      <a className="btn alt" href={checkHref}>
        {text.checkNow}
      </a>
      {children}
      <p className="or">
        <a href={backHref}>{text.back}</a>
      </p>
    </div>
  );
}

/** Why the payment did not go through, in plain words, and the way back. */
export function PaymentFailedCard({
  networkName,
  message,
  retryHref,
  text,
  heading: Heading = "h1",
}: {
  networkName: string | null;
  message: string;
  retryHref: string;
  text: FailedText;
  heading?: "h1" | "h2";
}) {
  return (
    <>
      <VenueName name={networkName} />
      <Heading>{text.title}</Heading>
      <GuestAlert messages={[message]} />
      <a className="btn" href={retryHref}>
        {text.retry}
      </a>
    </>
  );
}

export interface ReceiptWaitingText {
  title: string;
  body: (code: string) => string;
  checkNow: string;
  back: string;
}

/** While M-Pesa is asked about a receipt the guest typed (decision 0088): the page checks by its Refresh header. */
export function ReceiptWaitingCard({
  networkName,
  receipt,
  checkHref,
  backHref,
  text,
  heading: Heading = "h1",
}: {
  networkName: string | null;
  receipt: string;
  checkHref: string;
  backHref: string;
  text: ReceiptWaitingText;
  heading?: "h1" | "h2";
}) {
  return (
    <div aria-live="polite">
      <VenueName name={networkName} />
      <Heading>{text.title}</Heading>
      <GuestAlert messages={[text.body(receipt)]} tone="ok" />
      <a className="btn alt" href={checkHref}>
        {text.checkNow}
      </a>
      <p className="or">
        <a href={backHref}>{text.back}</a>
      </p>
    </div>
  );
}
