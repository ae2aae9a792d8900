import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseId } from "~/lib/ids";
import { apiData, dispatch, isoTime, withNotFoundMessage, type ApiMethods } from "~/services/api.server";
import { connectionTimeline } from "~/services/connection-timeline.server";
import { requireQueryOrg } from "./__venues.server";

// A connection's timeline (decision 0081), as the console's page shows it:
// GET /account/api/v1/connections/{id}/timeline (view_clients) → { data: { timeline: [{ at, kind,
//     summary, detail }] } }, oldest first; at is ISO 8601 UTC. The organisation is organization_id
//     (query) or X-Organization-Id; a connection of another organisation, an unknown or a malformed id is a 404.

const NOT_FOUND = "Connection not found.";

const methods: ApiMethods = {
  async GET({ request, params }) {
    const ctx = await requireQueryOrg(request, "view_clients");
    const events = await withNotFoundMessage(connectionTimeline(ctx, parseId(params.id)), NOT_FOUND);
    return apiData({ timeline: events.map((e) => ({ ...e, at: isoTime(e.at) })) });
  },
};

export const loader = (args: LoaderFunctionArgs) => dispatch(args, methods);
export const action = (args: ActionFunctionArgs) => dispatch(args, methods);
