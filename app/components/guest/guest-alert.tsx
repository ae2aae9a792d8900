/** Messages in a box: an error (role alert) or good news (role status). */
export function GuestAlert({ messages, tone = "error" }: { messages: readonly string[]; tone?: "error" | "ok" }) {
  return (
    <div className={tone === "ok" ? "alert ok" : "alert"} role={tone === "ok" ? "status" : "alert"}>
      {messages.map((m, i) => (
        <p key={i}>{m}</p>
      ))}
    </div>
  );
}

/** The network's name above a page's title. */
export function VenueName({ name }: { name: string | null | undefined }) {
  return name ? <p className="venue">{name}</p> : null;
}
