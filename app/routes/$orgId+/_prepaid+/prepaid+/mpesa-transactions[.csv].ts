// GET /{orgId}/prepaid/mpesa-transactions.csv?start&end (docs/guide/plans-and-prepaid.md#m-pesa-transactions):
// every M-Pesa transaction of the page's date range, newest first, streamed
// (mpesa-transactions.server.ts). For the signed-in browser (cookie) and for scripts (Authorization:
// Bearer <token>). Columns: #, Transaction ID (empty until paid), Phone Number (empty without
// view_clients), Amount (Kes), Short Code, Status (Completed / Incomplete), Created At (UTC).
// A malformed or reversed range is a 400 with the reason; a failure before the download a 500 with
// the spec's "Failed to fetch transactions.".
import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  MPESA_TRANSACTIONS_CSV,
  MPESA_TRANSACTIONS_MESSAGES,
  MPESA_TRANSACTIONS_PERMISSION,
  mpesaWindowOfUrl,
} from "~/lib/schemas/mpesa-transactions";
import { requireOrg } from "~/services/guard.server";
import { mpesaTransactionsCsvStream } from "~/services/prepaid/mpesa-transactions.server";

const text = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, MPESA_TRANSACTIONS_PERMISSION);
  const window = mpesaWindowOfUrl(new URL(request.url).searchParams, ctx.org.clock.offsetMs);
  if (!window.ok) return text(400, window.message);
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await mpesaTransactionsCsvStream(ctx, window.range);
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(
      JSON.stringify({ at: new Date().toISOString(), event: "mpesa_transactions_export_failed", org: ctx.org.id, error: String(error) }),
    );
    return text(500, MPESA_TRANSACTIONS_MESSAGES.failed);
  }
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${MPESA_TRANSACTIONS_CSV}"`,
      "Cache-Control": "no-store",
    },
  });
}
