// The data-access pages (GET/POST /connect/my-data): prove the phone with a code, then see what the
// operator holds, stop marketing, or ask for deletion. Plain forms, no script; the proof travels as
// a sealed ticket in a hidden field (no cookies).
import type { ReactNode } from "react";
import { GuestAlert, VenueName } from "./guest-alert";
import type { PrivacyText } from "./privacy-text";

export interface HeldRecordView {
  name: string | null;
  emailAddress: string | null;
  phoneNumber: string | null;
  marketing: boolean;
  devices: readonly { macAddress: string; description: string | null }[];
  visits: number;
  lastVisit: string | null;
  dataUsed: string;
}

export type MyDataStep =
  | { step: "ask"; phone: string; error?: string }
  | { step: "code"; phone: string; error?: string }
  | { step: "records"; ticket: string; records: readonly HeldRecordView[]; message?: string }
  | { step: "confirm-delete"; ticket: string }
  | { step: "done"; message: string };

interface Props {
  networkName: string;
  organizationName: string;
  token: string;
  backHref: string;
  noticeHref: string;
  state: MyDataStep;
  text: PrivacyText;
  /** the language the guest chose, carried by every form (null: none chosen) */
  lang: string | null;
}

const Hidden = ({ name, value }: { name: string; value: string }) => <input type="hidden" name={name} value={value} />;

function Form({ token, lang, intent, children }: { token: string; lang: string | null; intent: string; children: ReactNode }) {
  return (
    <form method="post" action="/connect/my-data" noValidate>
      <Hidden name="token" value={token} />
      {lang ? <Hidden name="lang" value={lang} /> : null}
      <Hidden name="intent" value={intent} />
      {children}
    </form>
  );
}

function Input({
  name,
  label,
  value,
  error,
  type,
  autoComplete,
}: {
  name: string;
  label: string;
  value: string;
  error?: string;
  type: string;
  autoComplete: string;
}) {
  const id = `data-${name}`;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={value}
        autoComplete={autoComplete}
        inputMode={type === "tel" ? "tel" : "numeric"}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p className="err" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

function Record({ record, text }: { record: HeldRecordView; text: PrivacyText }) {
  const rows: [string, ReactNode][] = [
    [text.name, record.name ?? text.none],
    [text.phone, record.phoneNumber ?? text.none],
    [text.email, record.emailAddress ?? text.none],
    [text.marketing, record.marketing ? text.marketingOn : text.marketingOff],
    [
      text.devices,
      record.devices.length ? record.devices.map((d) => [d.macAddress, d.description].filter(Boolean).join(" — ")).join("; ") : text.none,
    ],
    [text.visits, String(record.visits)],
    [text.lastVisit, record.lastVisit ?? text.none],
    [text.dataUsed, record.dataUsed],
  ];
  return (
    <dl className="plan" data-record="">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt style={{ fontWeight: 600 }}>{k}</dt>
          <dd style={{ margin: "0 0 .4rem" }}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function MyDataCard({ networkName, organizationName, token, backHref, noticeHref, state, text, lang }: Props) {
  let body: ReactNode;
  if (state.step === "ask") {
    body = (
      <>
        <p>{text.dataIntro(organizationName)}</p>
        <Form token={token} lang={lang} intent="send">
          <Input name="phone" label={text.phone} value={state.phone} error={state.error} type="tel" autoComplete="tel" />
          <button type="submit">{text.sendCode}</button>
        </Form>
      </>
    );
  } else if (state.step === "code") {
    body = (
      <>
        {state.error ? null : <GuestAlert messages={[text.codeSent(state.phone)]} tone="ok" />}
        <Form token={token} lang={lang} intent="verify">
          <Hidden name="phone" value={state.phone} />
          <Input name="code" label={text.code} value="" error={state.error} type="text" autoComplete="one-time-code" />
          <button type="submit">{text.showData}</button>
        </Form>
      </>
    );
  } else if (state.step === "records") {
    body = (
      <>
        {state.message ? <GuestAlert messages={[state.message]} tone="ok" /> : null}
        {state.records.length ? state.records.map((r, i) => <Record key={i} record={r} text={text} />) : <p>{text.noRecord}</p>}
        {state.records.some((r) => r.marketing) ? (
          <Form token={token} lang={lang} intent="withdraw">
            <Hidden name="ticket" value={state.ticket} />
            <button type="submit" className="alt">
              {text.stopMarketing}
            </button>
          </Form>
        ) : null}
        {state.records.length ? (
          <Form token={token} lang={lang} intent="delete">
            <Hidden name="ticket" value={state.ticket} />
            <button type="submit" className="alt">
              {text.deleteData}
            </button>
          </Form>
        ) : null}
      </>
    );
  } else if (state.step === "confirm-delete") {
    body = (
      <>
        <GuestAlert messages={[text.deleteWarning]} />
        <Form token={token} lang={lang} intent="delete-confirmed">
          <Hidden name="ticket" value={state.ticket} />
          <button type="submit">{text.deleteData}</button>
        </Form>
      </>
    );
  } else {
    body = <GuestAlert messages={[state.message]} tone="ok" />;
  }
  return (
    <div className="card">
      <VenueName name={networkName} />
      <h1>{text.dataTitle}</h1>
      {body}
      <p className="or">
        <small>
          <a href={noticeHref}>{text.notice}</a> · <a href={backHref}>{text.backToConnect}</a>
        </small>
      </p>
    </div>
  );
}
