// The M-Pesa pages after Pay: waiting for the PIN, and a payment that did not go through.
import type { ReactNode } from "react";
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
}: {
  networkName: string;
  checkHref: string;
  backHref: string;
  purchase: WaitingPurchase;
  /** below the check link: what else the guest can do (change-of-mind.tsx) */
  children?: ReactNode;
}) {
  const phone = purchase.phone.startsWith("254") ? `0${purchase.phone.slice(3)}` : purchase.phone;
  return (
    <div className="card" aria-live="polite">
      <VenueName name={networkName} />
      <h1>Check your phone</h1>
      <GuestAlert
        messages={[
          `Enter your M-Pesa PIN on ${phone} to pay Kes ${purchase.amount} for ${purchase.planName}.`,
          "This page checks by itself every few seconds; you will be connected as soon as the payment arrives.",
        ]}
        tone="ok"
      />
      <a className="btn alt" href={checkHref}>
        I have paid — check now
      </a>
      {children}
      <p className="or">
        <a href={backHref}>Back to the Wi-Fi page</a>
      </p>
    </div>
  );
}

/** Why the payment did not go through, in plain words, and the way back. */
export function PaymentFailedCard({ networkName, message, retryHref }: { networkName: string | null; message: string; retryHref: string }) {
  return (
    <div className="card">
      <VenueName name={networkName} />
      <h1>Payment not completed</h1>
      <GuestAlert messages={[message]} />
      <a className="btn" href={retryHref}>
        Try again
      </a>
    </div>
  );
}
