import type { OrgClock } from "~/lib/time-zone";
import type { OnlineText, PlanWords } from "./connect-text";
import { GuestAlert, VenueName } from "./guest-alert";
import { clockText } from "./plan-text";

/**
 * "You are online", and until when when the session has an end (on the organisation's clock).
 * `before`: sentences above those (a second visit of a link already online: that it was authorized).
 */
export function OnlineCard({
  networkName,
  sessionEndsAt,
  clock,
  text,
  plans,
  heading: Heading = "h1",
  before = [],
  after = [],
}: {
  networkName: string | null;
  sessionEndsAt: number | null;
  clock: OrgClock;
  text: OnlineText;
  plans: PlanWords;
  heading?: "h1" | "h2";
  before?: readonly string[];
  after?: readonly string[];
}) {
  const until = sessionEndsAt ? [text.until(clockText(sessionEndsAt, clock, plans))] : [];
  return (
    <>
      <VenueName name={networkName} />
      <Heading>{text.title}</Heading>
      <GuestAlert messages={[...before, text.body, ...until, ...after]} tone="ok" />
    </>
  );
}
