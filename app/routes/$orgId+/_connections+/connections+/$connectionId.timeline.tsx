// GET /{orgId}/connections/{id}/timeline: a connection's timeline for the operator (decision 0081):
// entry, sign-up or payment, the grant (what was sent to which gateway and its answer), accounting,
// and closing (what the gateway was told, its ACK/NAK) — "why is this guest offline?" in one place.
// view_clients, as the connections list; the REST and GraphQL answers come from the same service.
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { Time } from "~/components/ui/time";
import { parseId } from "~/lib/ids";
import { connectionTimeline } from "~/services/connection-timeline.server";
import { requireOrg } from "~/services/guard.server";

export const meta: MetaFunction = () => [{ title: "Connection timeline | Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_clients");
  const id = parseId(params.connectionId);
  const events = await connectionTimeline(ctx, id);
  return json({ id, orgId: ctx.org.id, events: events.map((e, i) => ({ ...e, key: i })) });
}

const KIND_LABELS: Record<string, string> = {
  entry: "Entry",
  payment: "Payment",
  authorized: "Sign-in",
  grant: "Grant",
  grant_failed: "Grant refused",
  accounting: "Accounting",
  revoke: "Close sent",
  revoke_answer: "Gateway's answer",
  radius_message: "RADIUS answer",
  ended: "Ended",
};

export default function ConnectionTimeline() {
  const { id, orgId, events } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Connection {id}: timeline</h2>
        <Link to={`/${orgId}/connections`} className="btn-secondary">
          Back to connections
        </Link>
      </div>
      <DataTable
        caption="What happened to this connection, oldest first"
        rows={events}
        rowKey={(e) => e.key}
        empty="Nothing recorded for this connection."
        columns={[
          { header: "Time", nowrap: true, cell: (e) => <Time ms={e.at} /> },
          { header: "Event", nowrap: true, cell: (e) => KIND_LABELS[e.kind] ?? e.kind },
          { header: "What happened", cell: (e) => e.summary },
        ]}
      />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
