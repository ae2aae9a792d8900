// A network's RADIUS gateways: the MikroTik, Cisco or Ruckus gateways that send
// RADIUS to FreeRADIUS in front of Mlango, each with its own secret (shown once, when made), and the
// answers to the Disconnect and CoA messages Mlango sent them.
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Field, FormErrors, SelectField, SubmitButton } from "~/components/ui/field";
import { confirmationNeeded } from "~/lib/confirm";
import { parseId } from "~/lib/ids";
import { RADIUS_CLIENT_MESSAGES, RADIUS_MAKES, radiusClientSchema } from "~/lib/schemas/radius-clients";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { addRadiusClient, listRadiusClients, removeRadiusClient, rotateRadiusSecret } from "~/services/radius/clients.server";
import { redirectWithToast } from "~/services/session.server";
import { getVenueHeader } from "~/services/venues.server";
import { Time } from "~/components/ui/time";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "RADIUS gateways | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  const { clients, messages } = await listRadiusClients(ctx, venue.id);
  return json({ orgId: ctx.org.id, venueId: venue.id, clients, messages, canEdit: ctx.permissions.has("edit_networks") });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_networks");
  requirePermission(ctx, "edit_networks");
  const venue = await getVenueHeader(ctx, parseId(params.venueId));
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "add") {
    const submission = parseForm(form, { schema: radiusClientSchema });
    if (submission.status !== "success") return json({ add: submission.reply() }, { status: 400 });
    const added = await addRadiusClient(ctx, venue.id, submission.value);
    if (!added.ok) return json({ add: submission.reply({ fieldErrors: added.errors }) }, { status: 400 });
    // The secret is in this answer only: it is not stored in a readable form for the console.
    return json({ secret: { name: submission.value.name, value: added.secret, message: RADIUS_CLIENT_MESSAGES.added } });
  }
  if (intent === "rotate" || intent === "remove") {
    const id = parseId(String(form.get("id") ?? ""));
    if (id === null) return json({ message: "Choose a RADIUS gateway of this network." }, { status: 404 });
    if (intent === "remove") {
      const ask = confirmationNeeded(form, "remove", RADIUS_CLIENT_MESSAGES.removeQuestion, { id });
      if (ask) return json(ask);
      await removeRadiusClient(ctx, venue.id, id);
      return redirectWithToast(request, `/${ctx.org.id}/venues/${venue.id}/radius`, RADIUS_CLIENT_MESSAGES.removed);
    }
    const secret = await rotateRadiusSecret(ctx, venue.id, id);
    return json({ secret: { name: String(form.get("name") ?? "").slice(0, 100), value: secret, message: RADIUS_CLIENT_MESSAGES.rotated } });
  }
  return json({ message: "Unknown action." }, { status: 400 });
}

export default function RadiusGateways() {
  const { orgId, venueId, clients, messages, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const secret = actionData && "secret" in actionData ? actionData.secret : null;
  return (
    <div className="space-y-4">
      <ActionFeedback
        actionData={actionData && !("secret" in actionData) && !("add" in actionData) ? actionData : undefined}
        cancelTo={`/${orgId}/venues/${venueId}/radius`}
      />
      {secret ? (
        <div role="status" className="card border-emerald-300 bg-emerald-50">
          <p className="font-medium">{secret.message}</p>
          <p className="mt-2 text-sm">
            {secret.name}:{" "}
            <code data-radius-secret className="rounded bg-white px-2 py-1">
              {secret.value}
            </code>
          </p>
        </div>
      ) : null}
      <section className="card">
        <h2 className="text-lg font-semibold">RADIUS gateways</h2>
        <p className="mt-1 text-sm text-slate-600">
          MikroTik, Cisco and Ruckus gateways log guests in through FreeRADIUS, which asks Mlango. Register each gateway by the address its
          RADIUS packets come from; give it the secret Mlango makes. The set-up steps for each make are on the Settings tab.
        </p>
        <div className="mt-4">
          <DataTable
            rows={clients}
            rowKey={(c) => c.id}
            empty="No RADIUS gateways yet."
            columns={[
              { header: "Name", cell: (c) => c.name },
              { header: "Make", cell: (c) => RADIUS_MAKES.find((m) => m.value === c.make)?.label ?? c.make },
              { header: "Address", nowrap: true, cell: (c) => <code>{c.ip_address}</code> },
              { header: "CoA port", nowrap: true, cell: (c) => c.coa_port },
              { header: "Secret changed", nowrap: true, cell: (c) => <Time ms={c.updated_at} /> },
            ]}
            actions={
              canEdit
                ? (c) => (
                    <>
                      <Form method="post" className="inline">
                        <input type="hidden" name="id" value={c.id} />
                        <input type="hidden" name="name" value={c.name} />
                        <button type="submit" name="intent" value="rotate" className="btn-secondary">
                          New secret
                        </button>
                      </Form>
                      <ConfirmButton intent="remove" message={RADIUS_CLIENT_MESSAGES.removeQuestion} fields={{ id: String(c.id) }}>
                        Remove
                      </ConfirmButton>
                    </>
                  )
                : undefined
            }
          />
        </div>
      </section>
      {canEdit ? <AddGateway lastResult={actionData && "add" in actionData ? actionData.add : null} /> : null}
      <section className="card">
        <h2 className="text-lg font-semibold">Disconnect and CoA messages</h2>
        <p className="mt-1 text-sm text-slate-600">
          What the gateways answered when Mlango cut a guest off or changed a speed (the latest 20).
        </p>
        <div className="mt-4">
          <DataTable
            rows={messages}
            rowKey={(m) => m.id}
            empty="None sent yet."
            columns={[
              { header: "Time", nowrap: true, cell: (m) => <Time ms={m.created_at} /> },
              { header: "Gateway", cell: (m) => m.client_name },
              { header: "Message", cell: (m) => m.kind },
              { header: "Connection", nowrap: true, cell: (m) => m.connection_id },
              {
                header: "Answer",
                cell: (m) =>
                  m.outcome === "ACK"
                    ? "Done"
                    : m.outcome === "NAK"
                      ? `Refused (${m.detail ?? "no reason"})`
                      : `No answer (${m.detail ?? ""}); retried`,
              },
            ]}
          />
        </div>
      </section>
    </div>
  );
}

function AddGateway({ lastResult }: { lastResult: SubmissionResult<string[]> | null }) {
  const [form, fields] = useForm({
    id: "add-radius-client",
    lastResult,
    constraint: getZodConstraint(radiusClientSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: radiusClientSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue: { coa_port: "3799", make: "mikrotik" },
  });
  return (
    <section className="card">
      <h2 className="mb-4 text-lg font-semibold">Add a RADIUS gateway</h2>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <Field label="Name" inputProps={getInputProps(fields.name, { type: "text" })} errors={fields.name.errors} />
        <SelectField label="Make" selectProps={getSelectProps(fields.make)} options={RADIUS_MAKES} errors={fields.make.errors} />
        <Field
          label="Address"
          inputProps={getInputProps(fields.ip_address, { type: "text" })}
          errors={fields.ip_address.errors}
          hint="The IPv4 or IPv6 address the gateway's RADIUS packets come from, as FreeRADIUS sees it."
        />
        <Field
          label="CoA port"
          inputProps={getInputProps(fields.coa_port, { type: "number" })}
          errors={fields.coa_port.errors}
          hint="Where the gateway takes Disconnect and CoA messages (usually 3799)."
        />
        <SubmitButton name="intent" value="add" pendingText="Adding…">
          Add gateway
        </SubmitButton>
      </Form>
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
