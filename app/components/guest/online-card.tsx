import { GuestAlert, VenueName } from "./guest-alert";

/** "You are online", and until when when the session has an end. */
export function OnlineCard({ networkName, sessionEndsAt }: { networkName: string | null; sessionEndsAt: number | null }) {
  const until = sessionEndsAt ? [`Your session lasts until ${new Date(sessionEndsAt).toISOString().slice(11, 16)} UTC.`] : [];
  return (
    <div className="card">
      <VenueName name={networkName} />
      <h1>You are online</h1>
      <GuestAlert messages={["You can now use the internet.", ...until]} tone="ok" />
    </div>
  );
}
