// The privacy notice and the guest's own data (issue 35 items 4 and 5, decision 0080):
//   GET  /connect/privacy?token=…   the notice generated for the guest's network
//   GET  /connect/my-data?token=…   prove the phone: "Send me a code"
//   POST /connect/my-data           intent send | verify | withdraw | delete | delete-confirmed
// No cookies: once the code proved the phone, a sealed ticket (organisation, phone, expiry) rides in
// a hidden field for 15 minutes. The proof itself is portal/phone-proof.server.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import { renderToStaticMarkup } from "react-dom/server";
import { GuestDocument } from "~/components/guest/guest-document";
import { MyDataCard, type HeldRecordView, type MyDataStep } from "~/components/guest/my-data";
import { NoticeCard } from "~/components/guest/privacy-notice";
import { formatBytes } from "~/lib/format";
import { normalizePhone } from "~/lib/phone";
import { SIGNUP_MESSAGES } from "~/lib/schemas/portal";
import { formatDateTime } from "~/lib/time";
import { loadGuestView, type GuestView } from "~/services/portal/connect.server";
import { checkCode, proofAsker, sendCode } from "~/services/portal/phone-proof.server";
import { heldRecords, organizationOffset, requestErasure, withdrawMarketing } from "~/services/portal/guest-data.server";
import { noticeForGuest } from "~/services/portal/privacy.server";
import { encryptSecret, readSecret } from "~/services/secrets.server";
import { refusalPage, refusalStatus } from "./pages";
import { speechOf } from "./connect-page";
import { sendPage, text, type GuestInput } from "./http";
import { say, withLang, type Speech } from "./i18n";

const TICKET_MS = 15 * 60_000;
const DOCTYPE = "<!doctype html>";

const links = (view: GuestView, token: string, speech: Speech) => {
  const q = withLang(`?token=${encodeURIComponent(token)}`, speech.carried);
  return {
    backHref: view.state === "authorized" ? `/connect/online${q}` : `/connect${q}`,
    noticeHref: `/connect/privacy${q}`,
    dataHref: `/connect/my-data${q}`,
  };
};

/** A token whose connection exists (waiting, online or expired alike: the data is the guest's either way). */
async function guestFor(res: ServerResponse, token: string | null): Promise<GuestView | null> {
  const view = await loadGuestView(token, { plans: false });
  if (!view) sendPage(res, refusalStatus(view), refusalPage(view));
  return view;
}

/** GET /connect/privacy?token=…: the notice, before the guest gives anything. */
export async function showPrivacyNotice(req: IncomingMessage, res: ServerResponse, { query }: GuestInput): Promise<void> {
  const token = text(query.token);
  const view = await guestFor(res, token);
  if (!view) return;
  const speech = speechOf(req, view, query);
  const notice = await noticeForGuest(view, speech.lang);
  if (!notice) return sendPage(res, 404, refusalPage(null));
  const { backHref, dataHref } = links(view, token!, speech);
  const html =
    DOCTYPE +
    renderToStaticMarkup(
      <GuestDocument title={notice.title} lang={speech.lang}>
        <NoticeCard
          notice={notice}
          networkName={view.network.name}
          backHref={backHref}
          dataHref={dataHref}
          operatorPolicyUrl={view.network.privacyUrl}
          text={speech.t.privacy}
        />
      </GuestDocument>,
    );
  sendPage(res, 200, html);
}

function dataPage(res: ServerResponse, status: number, view: GuestView, token: string, speech: Speech, state: MyDataStep): void {
  const { backHref, noticeHref } = links(view, token, speech);
  const t = speech.t.privacy;
  const said = "error" in state && state.error ? { ...state, error: say(speech.lang, state.error) } : state;
  const html =
    DOCTYPE +
    renderToStaticMarkup(
      <GuestDocument title={t.dataTitle} lang={speech.lang}>
        <MyDataCard
          networkName={view.network.name}
          organizationName={view.network.organizationName}
          token={token}
          backHref={backHref}
          noticeHref={noticeHref}
          state={said}
          text={t}
          lang={speech.carried}
        />
      </GuestDocument>,
    );
  sendPage(res, status, html);
}

const localPhone = (phone: string | null) => (phone?.startsWith("+254") ? `0${phone.slice(4)}` : (phone ?? "07"));

/** GET /connect/my-data?token=…: the phone to prove. */
export async function showMyData(req: IncomingMessage, res: ServerResponse, { query }: GuestInput): Promise<void> {
  const token = text(query.token);
  const view = await guestFor(res, token);
  if (!view) return;
  dataPage(res, 200, view, token!, speechOf(req, view, query), { step: "ask", phone: localPhone(view.customer.phoneNumber) });
}

const seal = (organizationId: number, phone: string, now = Date.now()) =>
  encryptSecret(JSON.stringify({ purpose: "guest-data", o: organizationId, p: phone, e: now + TICKET_MS }));

/** The phone a ticket proves for this organisation, or null (forged, another organisation's, expired). */
function openTicket(ticket: string | null, organizationId: number, now = Date.now()): string | null {
  if (!ticket || ticket.length > 1024) return null;
  try {
    const t = JSON.parse(readSecret(ticket) ?? "null") as { purpose?: string; o?: number; p?: string; e?: number } | null;
    if (!t || t.purpose !== "guest-data" || t.o !== organizationId || typeof t.p !== "string" || !(Number(t.e) > now)) return null;
    return t.p;
  } catch {
    return null;
  }
}

async function recordsStep(organizationId: number, phone: string, ticket: string, message?: string): Promise<MyDataStep> {
  const [records, offset] = await Promise.all([heldRecords(organizationId, phone), organizationOffset(organizationId)]);
  const views: HeldRecordView[] = records.map((r) => ({
    name: [r.firstName, r.middleName, r.lastName].filter(Boolean).join(" ") || null,
    emailAddress: r.emailAddress,
    phoneNumber: r.phoneNumber,
    marketing: r.marketing,
    devices: r.devices,
    visits: r.visits,
    lastVisit: r.lastVisitAt === null ? null : formatDateTime(r.lastVisitAt, offset),
    dataUsed: formatBytes(r.bytes),
  }));
  return { step: "records", ticket, records: views, message };
}

/** POST /connect/my-data: the code asked for and checked, then the guest's choices. */
export async function submitMyData(req: IncomingMessage, res: ServerResponse, { body }: GuestInput): Promise<void> {
  const form = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const token = text(form.token);
  const view = await guestFor(res, token);
  if (!view) return;
  const speech = speechOf(req, view, form);
  const t = speech.t.privacy;
  const org = view.organizationId;
  const intent = text(form.intent);
  if (intent === "send" || intent === "verify") {
    const typed = (text(form.phone) ?? "").slice(0, 32);
    const phone = normalizePhone(typed);
    if (!phone) return dataPage(res, 422, view, token!, speech, { step: "ask", phone: typed, error: SIGNUP_MESSAGES.phoneInvalid });
    if (intent === "send") {
      const sent = await sendCode({
        organizationId: org,
        phone,
        asker: proofAsker(view),
      });
      if (!sent.ok) return dataPage(res, sent.status, view, token!, speech, { step: "ask", phone: typed, error: sent.message });
      return dataPage(res, 200, view, token!, speech, { step: "code", phone: localPhone(phone) });
    }
    const code = (text(form.code) ?? "").slice(0, 16);
    const checked = await checkCode({
      organizationId: org,
      phone,
      code,
      asker: proofAsker(view),
    });
    if (!checked.ok)
      return dataPage(res, checked.status, view, token!, speech, {
        step: "code",
        phone: localPhone(phone),
        error: checked.status === 422 ? t.codeWrong : checked.message,
      });
    return dataPage(res, 200, view, token!, speech, await recordsStep(org, phone, seal(org, phone)));
  }
  const ticket = text(form.ticket);
  const phone = openTicket(ticket, org);
  if (!phone)
    return dataPage(res, 403, view, token!, speech, {
      step: "ask",
      phone: localPhone(view.customer.phoneNumber),
      error: t.proofExpired,
    });
  if (intent === "withdraw") {
    await withdrawMarketing(org, phone);
    return dataPage(res, 200, view, token!, speech, await recordsStep(org, phone, ticket!, t.marketingStopped));
  }
  if (intent === "delete") return dataPage(res, 200, view, token!, speech, { step: "confirm-delete", ticket: ticket! });
  if (intent === "delete-confirmed") {
    await requestErasure(org, phone);
    return dataPage(res, 202, view, token!, speech, { step: "done", message: t.deleteRequested });
  }
  dataPage(res, 400, view, token!, speech, { step: "ask", phone: localPhone(view.customer.phoneNumber) });
}
