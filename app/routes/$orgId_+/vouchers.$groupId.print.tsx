import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { formatCount } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { formatQuantity } from "~/lib/format";
import { limitText, priceText } from "~/lib/schemas/plans";
import { displayCode } from "~/lib/schemas/vouchers";
import { requireOrg } from "~/services/guard.server";
import { planOffer } from "~/services/prepaid/plans.server";
import { voucherCodes } from "~/services/prepaid/vouchers.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Print ${data.group.name} · Vouchers · Mlango` : "Mlango" },
];

// vouchers/{id}/print: the group's codes as a sheet of tear-off cards for the till,
// outside the console's shell so the page itself is what prints, with or without JavaScript.
// Codes with no use left are left out (the page says how many).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_vouchers");
  const { group, codes } = await voucherCodes(ctx, parseId(params.groupId));
  const plan = await planOffer(ctx, group.service_plan_id);
  const usesPerCode = Number(group.uses_per_code);
  const printable = codes.filter((c) => Number(c.uses) < usesPerCode);
  return json({
    orgId: ctx.org.id,
    organization: ctx.org.name,
    group: {
      id: Number(group.id),
      name: group.name,
      value: priceText(Number(group.face_value_cents)),
      valid_till: group.valid_till,
      uses_per_code: usesPerCode,
    },
    plan: plan ? { name: plan.name, gives: planGives(plan) } : null,
    codes: printable.map((c) => displayCode(c.code)),
    usedUp: codes.length - printable.length,
  });
}

/** "1 hour of time · 500 MB of data · lasts 1 day": what a guest gets for a code. */
function planGives(plan: NonNullable<Awaited<ReturnType<typeof planOffer>>>): string {
  const time = limitText(plan.time_limit, plan.time_limit_unit);
  const data = limitText(plan.usage_limit, plan.usage_limit_unit);
  return [
    time === "Unlimited" ? "Unlimited time" : `${time} of time`,
    data === "Unlimited" ? "unlimited data" : `${data} of data`,
    `lasts ${formatQuantity(plan.validity, plan.validity_units)}`,
  ].join(" · ");
}

const PRINT_CSS = `
@page { size: A4; margin: 10mm; }
.voucher-card { break-inside: avoid; page-break-inside: avoid; }
@media print {
  html, body { background: #fff !important; }
  .no-print { display: none !important; }
  .voucher-sheet { padding: 0 !important; }
  .voucher-grid { grid-template-columns: repeat(3, minmax(0, 1fr)) !important; gap: 0 !important; }
  .voucher-card { border-radius: 0 !important; box-shadow: none !important; }
}
`;

export default function PrintVouchers() {
  const { orgId, organization, group, plan, codes, usedUp } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  return (
    <main className="voucher-sheet min-h-full bg-white p-4 md:p-6">
      <style>{PRINT_CSS}</style>
      <div className="no-print mb-4 flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 pb-4">
        <div>
          <h1 className="text-xl font-semibold">
            {group.name}: {formatCount(codes.length)} code{codes.length === 1 ? "" : "s"} to print
          </h1>
          <p className="text-sm text-slate-600">
            {hydrated
              ? "Print the sheet, then cut along the dashed lines."
              : "Use your browser's Print command (Ctrl+P or ⌘P) to print this sheet, then cut along the dashed lines."}
            {usedUp > 0
              ? ` ${formatCount(usedUp)} code${usedUp === 1 ? " that is" : "s that are"} used up ${usedUp === 1 ? "is" : "are"} left out.`
              : ""}
          </p>
          {plan ? null : (
            <p className="text-sm text-red-800">
              The plan of this group was deleted: these codes give no internet until the group gets another plan.
            </p>
          )}
        </div>
        <div className="flex gap-2">
          {hydrated ? (
            <button type="button" className="btn-primary" onClick={() => window.print()}>
              Print
            </button>
          ) : null}
          <Link to={`/${orgId}/vouchers/${group.id}`} className="btn-secondary">
            Back to the group
          </Link>
        </div>
      </div>
      <ul className="voucher-grid grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label="Voucher codes">
        {codes.map((code) => (
          <li key={code} className="voucher-card rounded-md border-2 border-dashed border-slate-400 p-3 text-slate-900">
            <div className="flex items-baseline justify-between gap-2 text-xs">
              <span className="font-semibold">{organization}</span>
              <span className="font-semibold">{group.value}</span>
            </div>
            <p className="mt-1 text-sm font-semibold">{plan?.name ?? group.name}</p>
            {plan ? <p className="text-xs text-slate-700">{plan.gives}</p> : null}
            <p className="my-2 text-center font-mono text-2xl font-bold tracking-widest" data-code>
              {code}
            </p>
            <div className="flex items-baseline justify-between gap-2 text-xs text-slate-700">
              <span>{`Valid till ${group.valid_till}`}</span>
              {group.uses_per_code > 1 ? <span>{`${group.uses_per_code} uses each`}</span> : null}
            </div>
            <p className="mt-1 text-[10px] leading-tight text-slate-600">Join the Wi-Fi, open any web page and type this code.</p>
          </li>
        ))}
      </ul>
      {codes.length === 0 ? <p className="text-slate-600">Every code of this group is used up: there is nothing to print.</p> : null}
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
