import { GuestAlert, VenueName } from "./guest-alert";

/** A page with only messages: unknown, expired or used links, refused devices, bad gateway requests. */
export function MessageCard({
  title,
  messages,
  networkName,
  heading: Heading = "h1",
}: {
  title: string;
  messages: readonly string[];
  networkName?: string | null;
  heading?: "h1" | "h2";
}) {
  return (
    <>
      <VenueName name={networkName} />
      <Heading>{title}</Heading>
      <GuestAlert messages={messages} />
    </>
  );
}
