import type { GuestBanner } from "~/lib/ads";
import type { ConnectText } from "./connect-text";

/** A banner (a plain image link through Mlango's click counter) and the word "Sponsored". */

export function AdBanner({ banner, text }: { banner: GuestBanner; text: Pick<ConnectText, "sponsored" | "advertisement"> }) {
  return (
    <p className="ad" style={{ margin: "0 0 1rem", textAlign: "center" }}>
      <a href={banner.href} data-banner={banner.id}>
        <img
          src={banner.src}
          width={banner.width}
          height={banner.height}
          alt={banner.description || text.advertisement}
          style={{ maxWidth: "100%", height: "auto", borderRadius: ".5rem" }}
        />
      </a>
      <br />
      <small>{text.sponsored}</small>
    </p>
  );
}
