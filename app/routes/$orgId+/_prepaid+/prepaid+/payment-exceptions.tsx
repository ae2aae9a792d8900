// /{orgId}/prepaid/payment-exceptions (menu "Payment Exceptions"; decision 0077): the M-Pesa
// payments that need a person — paid but not granted, paid late, a receipt used twice, an amount or
// phone different from the purchase, a payment for an unknown purchase, one M-Pesa never confirmed —
// open ones first by default, with the receipt, the phone (view_clients) and the connection. The
// organisation's owner grants the plan, refunds through Daraja's Reversal API (confirmed first;
// the result comes later), or marks it resolved. Needs view_subscriptions, like the transactions.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Pagination } from "~/components/ui/pagination";
import { Time, useOrgClock } from "~/components/ui/time";
import { confirmationNeeded } from "~/lib/confirm";
import { formatCount } from "~/lib/format";
import { displayPhone } from "~/lib/phone";
import { formatOffset } from "~/lib/time-zone";
import {
  isPaymentExceptionAction,
  PAYMENT_EXCEPTION_KINDS,
  PAYMENT_EXCEPTION_MESSAGES,
  PAYMENT_EXCEPTION_STATUSES,
  PAYMENT_EXCEPTIONS_PAGE_SIZE,
  PAYMENT_EXCEPTIONS_PERMISSION,
  paymentExceptionsFilterOfUrl,
} from "~/lib/schemas/payment-exceptions";
import { requireOrg } from "~/services/guard.server";
import { actOnPaymentException, listPaymentExceptions } from "~/services/prepaid/payment-exceptions.server";
import { redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Payment Exceptions | Mlango" }];

const REFUND_MESSAGE = "Refund this payment to the guest's M-Pesa? The money goes back to the phone that paid.";

function pageOf(url: URL): number {
  const raw = url.searchParams.get("page") ?? "1";
  return /^\d{1,7}$/.test(raw) && Number(raw) >= 1 ? Number(raw) : 1;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, PAYMENT_EXCEPTIONS_PERMISSION);
  const url = new URL(request.url);
  const openOnly = paymentExceptionsFilterOfUrl(url.searchParams).show === "open";
  const page = await listPaymentExceptions(ctx, { openOnly, page: pageOf(url) });
  const rows = page.rows.map((row) => ({ ...row, phone_number: displayPhone(row.phone_number) }));
  return json({ orgId: ctx.org.id, canAct: ctx.isOwner, openOnly, page: { ...page, rows } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, PAYMENT_EXCEPTIONS_PERMISSION);
  const form = await request.formData();
  const idText = String(form.get("id") ?? "");
  const id = /^\d{1,12}$/.test(idText) ? Number(idText) : 0;
  const back = `/${ctx.org.id}/prepaid/payment-exceptions`;
  const intent = form.get("intent");
  if (!isPaymentExceptionAction(intent)) return json({ message: PAYMENT_EXCEPTION_MESSAGES.unknownAction }, { status: 400 });
  if (intent === "refund") {
    const ask = confirmationNeeded(form, "refund", REFUND_MESSAGE, { id });
    if (ask) return json(ask);
  }
  const outcome = await actOnPaymentException(ctx, intent, id);
  if (!outcome.ok) return json({ message: outcome.message }, { status: outcome.status });
  return redirectWithToast(request, back, outcome.message);
}

const BADGE: Record<string, string> = {
  open: "border-amber-300 bg-amber-50 text-amber-800",
  granted: "border-green-300 bg-green-50 text-green-800",
  refunding: "border-sky-300 bg-sky-50 text-sky-800",
  refunded: "border-green-300 bg-green-50 text-green-800",
  refund_failed: "border-red-300 bg-red-50 text-red-800",
  dismissed: "border-slate-300 bg-slate-100 text-slate-700",
};

export default function PaymentExceptions() {
  const { orgId, canAct, openOnly, page } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const zone = formatOffset(useOrgClock().offsetMs);
  const base = `/${orgId}/prepaid/payment-exceptions`;
  return (
    <section className="card" aria-labelledby="exceptions-title">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h1 id="exceptions-title" className="text-xl font-semibold">
          Payment Exceptions
        </h1>
        <nav className="flex gap-3 text-sm" aria-label="Which exceptions">
          {openOnly ? (
            <span className="font-semibold">Open ({formatCount(page.open)})</span>
          ) : (
            <Link to={base}>Open ({formatCount(page.open)})</Link>
          )}
          {openOnly ? <Link to={`${base}?show=all`}>All</Link> : <span className="font-semibold">All</span>}
        </nav>
      </div>
      <p className="mb-3 max-w-3xl text-sm text-slate-600">
        M-Pesa payments that need someone to look at them. Grant the plan the guest paid for, refund the payment to their phone, or mark it
        resolved once you have dealt with it another way.
      </p>
      <ActionFeedback actionData={actionData} cancelTo={base} />
      {canAct ? null : <p className="mb-3 text-sm text-slate-500">Only the organization&apos;s administrator can grant or refund.</p>}
      <DataTable
        rows={page.rows}
        rowKey={(row) => row.id}
        empty={PAYMENT_EXCEPTION_MESSAGES.empty}
        columns={[
          { header: `When (${zone})`, nowrap: true, cell: (row) => <Time ms={row.created_at} /> },
          { header: "What happened", cell: (row) => <span data-kind={row.kind}>{PAYMENT_EXCEPTION_KINDS[row.kind]}</span> },
          { header: "M-Pesa receipt", mono: true, nowrap: true, cell: (row) => row.receipt ?? "—" },
          { header: "Phone", nowrap: true, cell: (row) => row.phone_number ?? "—" },
          {
            header: "Amount",
            numeric: true,
            cell: (row) =>
              row.amount === null
                ? "—"
                : `Kes ${formatCount(row.amount)}${row.expected_amount !== null && row.expected_amount !== row.amount ? ` (asked Kes ${formatCount(row.expected_amount)})` : ""}`,
          },
          { header: "Plan", cell: (row) => row.plan_name ?? "—" },
          {
            header: "Connection",
            nowrap: true,
            cell: (row) => (row.connection_id === null ? "—" : `#${row.connection_id}`),
          },
          { header: "Details", cell: (row) => (row.reversal_result ? `${row.detail} Refund: ${row.reversal_result}` : row.detail) },
          {
            header: "Status",
            cell: (row) => (
              <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${BADGE[row.status] ?? ""}`}>
                {PAYMENT_EXCEPTION_STATUSES[row.status]}
              </span>
            ),
          },
          {
            header: "Actions",
            cell: (row) =>
              canAct ? (
                <div className="flex flex-wrap gap-2">
                  {row.can_grant ? (
                    <Form method="post">
                      <input type="hidden" name="id" value={row.id} />
                      <button type="submit" name="intent" value="grant" className="btn-primary">
                        Grant plan
                      </button>
                    </Form>
                  ) : null}
                  {row.can_refund ? (
                    <ConfirmButton intent="refund" message={REFUND_MESSAGE} fields={{ id: String(row.id) }}>
                      Refund
                    </ConfirmButton>
                  ) : null}
                  {row.status === "open" || row.status === "refund_failed" ? (
                    <Form method="post">
                      <input type="hidden" name="id" value={row.id} />
                      <button type="submit" name="intent" value="dismiss" className="btn-secondary">
                        Mark resolved
                      </button>
                    </Form>
                  ) : null}
                </div>
              ) : null,
          },
        ]}
      />
      <Pagination page={page.page} pageSize={PAYMENT_EXCEPTIONS_PAGE_SIZE} total={page.total} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
