// "Enter the code sent to 07…78" (decision 0086): a guest proves owning a phone number without
// JavaScript or cookies. The form posts back to where it came from with every field it was given
// (hidden) plus the code; its second button goes on without the code (`proof=skip`).
import { GuestAlert, VenueName } from "./guest-alert";

export function ProofCard({
  networkName,
  title,
  sent,
  ask,
  action,
  fields,
  codeLabel,
  confirm,
  skip,
  error,
  backHref,
  backLabel,
  heading: Heading = "h1",
}: {
  networkName: string;
  title: string;
  /** what was sent, and to which (masked) number */
  sent: string;
  ask: string;
  action: string;
  /** the form's fields to post again (token, the sign-up or the purchase, lang) */
  fields: Record<string, string>;
  codeLabel: string;
  confirm: string;
  /** the label of going on without the code */
  skip: string;
  error: string | null;
  backHref: string;
  backLabel: string;
  heading?: "h1" | "h2";
}) {
  return (
    <>
      <VenueName name={networkName} />
      <Heading>{title}</Heading>
      {error ? <GuestAlert messages={[error]} /> : <GuestAlert tone="ok" messages={[sent]} />}
      <p>{ask}</p>
      <form method="post" action={action}>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor="proof_code">{codeLabel}</label>
        <input
          id="proof_code"
          name="proof_code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]{6,8}"
          maxLength={8}
          aria-invalid={error ? true : undefined}
        />
        <button type="submit" name="proof" value="check">
          {confirm}
        </button>
        <button type="submit" name="proof" value="skip" className="alt" formNoValidate>
          {skip}
        </button>
      </form>
      <p className="or">
        <a href={backHref}>{backLabel}</a>
      </p>
    </>
  );
}
