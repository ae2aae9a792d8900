// The connect card's privacy pieces (issue 35): the link to the generated notice, the note when it
// changed since the guest last accepted it, the link to the guest's own data, and the note that
// replaces a social button a captive mini-browser cannot use. Kept apart from connect-card.tsx.
import type { OAuthProviderName } from "~/db/schema";
import { PROVIDER_LABELS } from "~/lib/schemas/social-login";
import type { PrivacyText } from "./privacy-text";

/** What the connect card shows of the privacy notice and the guest's browser. */
export interface GuestPrivacy {
  noticeHref: string;
  dataHref: string;
  /** The notice's version, posted with Connect and recorded with the consent. */
  version: string;
  /** The guest accepted an earlier version: the card says the notice changed. */
  changed: boolean;
  /** Social providers left out because this browser is an embedded webview (a captive sheet). */
  hiddenProviders: OAuthProviderName[];
  text: PrivacyText;
}

/** The notice changed since the guest last accepted it. */
export function NoticeChanged({ privacy }: { privacy: GuestPrivacy }) {
  if (!privacy.changed) return null;
  return (
    <p className="plan" role="status">
      {privacy.text.noticeChanged} <a href={privacy.noticeHref}>{privacy.text.readNotice}</a>
    </p>
  );
}

/** The notice version, posted with the form: a submission under an older one is asked again. */
export const NoticeVersion = ({ privacy }: { privacy: GuestPrivacy | null | undefined }) =>
  privacy ? <input type="hidden" name="notice_version" value={privacy.version} /> : null;

/** Under the forms: see or delete my data. */
export function MyDataLink({ privacy }: { privacy: GuestPrivacy | null | undefined }) {
  if (!privacy) return null;
  return (
    <p className="or">
      <small>
        <a href={privacy.noticeHref}>{privacy.text.notice}</a> · <a href={privacy.dataHref}>{privacy.text.myData}</a>
      </small>
    </p>
  );
}

/** The same links on pages without the card (the online page). */
export function MyDataLinks({ token, text, lang }: { token: string; text: PrivacyText; lang: string | null }) {
  const q = `?token=${encodeURIComponent(token)}${lang ? `&lang=${lang}` : ""}`;
  return (
    <p className="or">
      <small>
        <a href={`/connect/privacy${q}`}>{text.notice}</a> · <a href={`/connect/my-data${q}`}>{text.myData}</a>
      </small>
    </p>
  );
}

/** Why a social button is missing in a captive sheet, and what works instead. */
export function CaptiveSocialNote({ privacy }: { privacy: GuestPrivacy | null | undefined }) {
  if (!privacy?.hiddenProviders.length) return null;
  const names = privacy.hiddenProviders.map((p) => PROVIDER_LABELS[p]).join(", ");
  return (
    <p className="plan" data-captive-note="">
      {privacy.text.captiveNote(names)}
    </p>
  );
}
