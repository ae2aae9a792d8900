// A guest who tried too often (M-Pesa prompts, voucher codes): why, when to try again, and the way
// back. Sent with status 429 and a Retry-After header (decision 0078).
import { GuestAlert, VenueName } from "./guest-alert";

export function TooManyAttemptsCard({
  networkName,
  title,
  message,
  backHref,
  backLabel,
  heading: Heading = "h1",
}: {
  networkName: string | null;
  title: string;
  message: string;
  backHref: string | null;
  backLabel: string;
  heading?: "h1" | "h2";
}) {
  return (
    <>
      <VenueName name={networkName} />
      <Heading>{title}</Heading>
      <GuestAlert messages={[message]} />
      {backHref ? (
        <a className="btn alt" href={backHref}>
          {backLabel}
        </a>
      ) : null}
    </>
  );
}
