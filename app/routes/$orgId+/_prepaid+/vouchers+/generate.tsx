import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { VoucherForm } from "~/components/prepaid/voucher-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { voucherGroupSchema } from "~/lib/schemas/vouchers";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { planChoices } from "~/services/prepaid/plans.server";
import { generateVouchers, getVoucherGroup, updateVoucherGroup } from "~/services/prepaid/vouchers.server";
import { redirectWithToast } from "~/services/session.server";
import { groupFormValues, groupIdOf, NEW_GROUP_VALUES, todayUtc } from "./__vouchers.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.group ? `Update ${data.group.name} · Vouchers · Mlango` : "Generate vouchers | Mlango" },
];

// vouchers/generate (docs/guide/plans-and-prepaid.md#vouchers): create mode without a
// voucher id, update mode with one (?id=5). Both need edit_vouchers, on the server; another
// organisation's id is a 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_vouchers");
  requirePermission(ctx, "edit_vouchers");
  const id = groupIdOf(request);
  const group = id === null ? null : await getVoucherGroup(ctx, id);
  return json({
    orgId: ctx.org.id,
    today: todayUtc(),
    group: group ? { id: Number(group.id), name: group.name } : null,
    values: group ? groupFormValues(group) : NEW_GROUP_VALUES,
    plans: await planChoices(ctx),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_vouchers");
  requirePermission(ctx, "edit_vouchers");
  const id = groupIdOf(request);
  if (id !== null) await getVoucherGroup(ctx, id); // 404 before the form is looked at
  const creating = id === null;
  const submission = parseForm(await request.formData(), { schema: voucherGroupSchema(todayUtc(), creating) });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const result = creating ? await generateVouchers(ctx, submission.value) : await updateVoucherGroup(ctx, id, submission.value);
  if (!result.ok) return json(submission.reply({ fieldErrors: result.errors }), { status: 400 });
  return redirectWithToast(request, `/${ctx.org.id}/vouchers/${result.id}`, result.message);
}

export default function GenerateVouchers() {
  const { orgId, today, group, values, plans } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const title = group ? `Update ${group.name}` : "Generate vouchers";
  const here = group ? `/${orgId}/vouchers/generate?id=${group.id}` : `/${orgId}/vouchers/generate`;
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/vouchers`} className="link">
          Vouchers
        </Link>{" "}
        ›{" "}
        {group ? (
          <>
            <Link to={`/${orgId}/vouchers/${group.id}`} className="link">
              {group.name}
            </Link>{" "}
            › <span>Update</span>
          </>
        ) : (
          <span>Generate</span>
        )}
      </nav>
      <section className="card">
        <h1 className="mb-1 text-xl font-semibold">{title}</h1>
        <p className="mb-4 text-sm text-slate-600">
          {group
            ? "Changes apply to every code of the group, also those already printed. The codes themselves stay."
            : "Each code gives the chosen service plan on the connect page. Codes are 10 characters without look-alikes (no 0/O or 1/I/L)."}
        </p>
        <VoucherForm
          key={group?.id ?? "new"}
          lastResult={lastResult}
          defaultValue={values}
          today={today}
          creating={!group}
          plans={plans}
          action={here}
          cancelTo={group ? `/${orgId}/vouchers/${group.id}` : `/${orgId}/vouchers`}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
