// GET /{orgId}/vouchers/{id}/codes.csv: a voucher group's codes for the till or a mail merge:
// code (as printed, XXXXX-XXXXX; the connect page
// takes it with or without the dash), uses, first redeemed at (DD-MM-YYYY HH:mm on the organisation's
// clock, named in the header as every export does; empty while unused).
// UTF-8 with a BOM so spreadsheets read it as UTF-8; for the signed-in browser (cookie) and for
// scripts (Authorization: Bearer <token>). A group holds at most MAX_CODES codes, read in batches.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvHeader, csvLine } from "~/lib/csv-line";
import { parseId } from "~/lib/ids";
import { displayCode } from "~/lib/schemas/vouchers";
import { formatDateTime, withZone } from "~/lib/time";
import { requireOrg } from "~/services/guard.server";
import { getVoucherGroup, voucherCodes } from "~/services/prepaid/vouchers.server";

const BATCH = 2_000;
/** The header, in the words of the detail page's table. */
const codesCsvHeaderAt = (offsetMs: number) => ["Code", "Uses", withZone("First Redeemed At", offsetMs)];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_vouchers");
  const group = await getVoucherGroup(ctx, parseId(params.groupId)); // 404 before the download starts
  const encoder = new TextEncoder();
  let offset = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvHeader(codesCsvHeaderAt(ctx.org.clock.offsetMs))));
        return;
      }
      const { codes } = await voucherCodes(ctx, group.id, { offset, pageSize: BATCH });
      let text = "";
      for (const c of codes) {
        text += csvLine([
          displayCode(c.code),
          Number(c.uses),
          c.first_redeemed_at === null ? null : formatDateTime(Number(c.first_redeemed_at), ctx.org.clock.offsetMs),
        ]);
      }
      if (text) controller.enqueue(encoder.encode(text));
      offset += codes.length;
      if (codes.length < BATCH) controller.close();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="vouchers-${group.id}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
