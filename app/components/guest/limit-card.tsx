// A guest who tried too often (M-Pesa prompts, voucher codes): why, when to try again, and the way
// back. Sent with status 429 and a Retry-After header (decision 0078).
import { GuestAlert, VenueName } from "./guest-alert";

export function TooManyAttemptsCard({
  networkName,
  title,
  message,
  backHref,
  backLabel,
}: {
  networkName: string | null;
  title: string;
  message: string;
  backHref: string | null;
  backLabel: string;
}) {
  return (
    <div className="card">
      <VenueName name={networkName} />
      <h1>{title}</h1>
      <GuestAlert messages={[message]} />
      {backHref ? (
        <a className="btn alt" href={backHref}>
          {backLabel}
        </a>
      ) : null}
    </div>
  );
}
