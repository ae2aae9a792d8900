// POST /{orgId}/devices/{id}/block (docs/guide/api.md#mutations,
// docs/guide/connections-devices-customers.md#block): intent block | unblock, back to redirectTo
// with the spec's message as a toast. Blocking asks first: with JavaScript the button's confirm()
// does; without it the unconfirmed POST lands on this route's page, which asks 'Are you sure you
// want to block device {name or mac}?' (docs/decisions/0003).
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { parseId } from "~/lib/ids";
import { blockQuestion } from "~/lib/records";
import { safeRedirect } from "~/lib/redirect";
import { findDevice, setDeviceBlocked } from "~/services/devices.server";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Block device | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_clients");
  const device = await findDevice(ctx, parseId(params.deviceId));
  const back = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), `/${ctx.org.id}/customers`);
  return json({
    question: blockQuestion({ name: device.name, macAddress: device.mac_address }),
    back,
    blocked: device.blocked_at !== null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_clients");
  const form = await request.formData();
  const deviceId = parseId(params.deviceId);
  const back = safeRedirect(form.get("redirectTo"), `/${ctx.org.id}/customers`);
  const intent = form.get("intent");
  if (intent !== "block" && intent !== "unblock") return json({ message: "Unknown action." }, { status: 400 });
  if (intent === "block" && form.get("confirmed") !== "yes") {
    await findDevice(ctx, deviceId); // a foreign or missing device is a 404 here too
    return redirect(`/${ctx.org.id}/devices/${deviceId}/block?${new URLSearchParams({ redirectTo: back })}`);
  }
  const outcome = await setDeviceBlocked(ctx, deviceId, intent === "block");
  return redirectWithToast(request, back, { type: outcome.ok ? "success" : "error", message: outcome.message });
}

export default function ConfirmBlock() {
  const { question, back, blocked } = useLoaderData<typeof loader>();
  return (
    <section className="card max-w-xl">
      <h2 className="mb-3 text-lg font-semibold">Block device</h2>
      {blocked ? (
        <p className="mb-3">This device is already blocked.</p>
      ) : (
        <div role="alertdialog" aria-labelledby="confirm-message" className="rounded-md border border-amber-300 bg-amber-50 p-4">
          <p id="confirm-message" className="font-medium text-amber-900">
            {question}
          </p>
          <Form method="post" className="mt-3 flex gap-2">
            <input type="hidden" name="redirectTo" value={back} />
            <input type="hidden" name="confirmed" value="yes" />
            <button type="submit" name="intent" value="block" className="btn-danger">
              Yes, continue
            </button>
            <Link to={back} className="btn-secondary">
              Cancel
            </Link>
          </Form>
        </div>
      )}
      {blocked ? (
        <Link to={back} className="btn-secondary">
          Back
        </Link>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
