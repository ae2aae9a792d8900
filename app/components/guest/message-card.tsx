import { GuestAlert, VenueName } from "./guest-alert";

/** A page with only messages: unknown, expired or used links, refused devices, bad gateway requests. */
export function MessageCard({ title, messages, networkName }: { title: string; messages: readonly string[]; networkName?: string | null }) {
  return (
    <div className="card">
      <VenueName name={networkName} />
      <h1>{title}</h1>
      <GuestAlert messages={messages} />
    </div>
  );
}
