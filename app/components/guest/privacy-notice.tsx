// The privacy notice page (GET /connect/privacy): the generated notice, sections of plain sentences,
// and the way back to connecting. Props only: the notice's words come from portal/privacy.server.ts.
import { VenueName } from "./guest-alert";
import type { PrivacyText } from "./privacy-text";

export interface NoticeView {
  title: string;
  intro: string;
  sections: readonly { heading: string; items: readonly string[] }[];
  version: string;
}

export function NoticeCard({
  notice,
  networkName,
  backHref,
  dataHref,
  operatorPolicyUrl,
  text,
}: {
  notice: NoticeView;
  networkName: string;
  backHref: string;
  dataHref: string;
  operatorPolicyUrl: string | null;
  text: PrivacyText;
}) {
  return (
    <div className="card">
      <VenueName name={networkName} />
      <h1>{notice.title}</h1>
      <p>{notice.intro}</p>
      {notice.sections.map((s) => (
        <section key={s.heading}>
          <h2 style={{ fontSize: "1.05rem", margin: "1rem 0 .25rem" }}>{s.heading}</h2>
          <ul style={{ margin: 0, paddingLeft: "1.2rem" }}>
            {s.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
      {operatorPolicyUrl ? (
        <p>
          <a href={operatorPolicyUrl}>{text.operatorPolicy}</a>
        </p>
      ) : null}
      <p>
        <small>{text.version(notice.version)}</small>
      </p>
      <a className="btn" href={backHref}>
        {text.backToConnect}
      </a>
      <a className="btn alt" href={dataHref}>
        {text.myData}
      </a>
    </div>
  );
}
