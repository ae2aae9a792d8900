// POST /api/v1/getmpesatransactions {organization_id, start_date, end_date, page}
// (docs/guide/api.md#m-pesa-transactions): the M-Pesa transactions of the page
// /{orgId}/prepaid/mpesa-transactions, for scripts. Bearer token only (as the account API);
// organization_id in the body, else X-Organization-Id; view_subscriptions
// (MPESA_TRANSACTIONS_PERMISSION), phone numbers null without view_clients.
//   start_date, end_date  YYYY-MM-DD (a time after it is ignored), whole UTC days, inclusive;
//                         default 1970-01-01 and today; after today counts as today.
//   page                  1 to 1,000,000, default 1; 50 rows a page.
// → 200 { data: { data: [{ id, transaction_id, phone_number, amount, short_code, status, created_at }],
//         current_page, last_page, per_page, count, count_capped } }
//   newest first; amount in whole shillings; status 1 Completed, anything else Incomplete (0 pending,
//   2 failed); created_at ISO 8601. count is exact up to 10,000 (or five pages past current_page):
//   count_capped says there are more, and last_page then grows as deeper pages are asked for.
// 401 without a token; 404 for an organisation the caller is not a member of; 403 without the
// permission; 422 { errors: { field: [message] } } for a malformed date or page or a start after the
// end; 500 { error: { message: "Failed to fetch transactions." } } when the database fails.
// JSON and form bodies both reach it: server/boundary.mjs treats /api/ like /account/api/.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { MPESA_TRANSACTIONS_MESSAGES, MPESA_TRANSACTIONS_PERMISSION, mpesaTransactionsQuerySchema } from "~/lib/schemas/mpesa-transactions";
import { apiData, apiError, dispatch, isoTime, parseApiBody, type ApiMethods } from "~/services/api.server";
import { listMpesaTransactions, type MpesaTransactionRow } from "~/services/prepaid/mpesa-transactions.server";
import { readScopedBody } from "./account+/__venues.server";

function transactionJson(t: MpesaTransactionRow) {
  return {
    id: t.id,
    transaction_id: t.transaction_id,
    phone_number: t.phone_number,
    amount: t.amount,
    short_code: t.short_code,
    status: t.status,
    created_at: isoTime(t.created_at),
  };
}

const methods: ApiMethods = {
  async POST({ request }) {
    // The permission is checked before the body, so a refused caller learns nothing from 422s.
    const { ctx, body } = await readScopedBody(request, MPESA_TRANSACTIONS_PERMISSION);
    const { range, page } = parseApiBody(body, mpesaTransactionsQuerySchema());
    let list;
    try {
      list = await listMpesaTransactions(ctx, range, page);
    } catch (error) {
      if (error instanceof Response) throw error;
      console.error(
        JSON.stringify({ at: new Date().toISOString(), event: "mpesa_transactions_failed", org: ctx.org.id, error: String(error) }),
      );
      return apiError(500, MPESA_TRANSACTIONS_MESSAGES.failed);
    }
    return apiData({
      data: list.rows.map(transactionJson),
      current_page: list.page,
      last_page: list.lastPage,
      per_page: list.perPage,
      count: list.total,
      count_capped: list.capped,
    });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
