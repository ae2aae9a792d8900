// conform's own controls in a posted form (`__intent__` of the list buttons, `__state__`) are read
// with JSON.parse: hostile values there were a 500 on every form with list intents. Performed here
// against the survey form, a group's filters and a floor plan's typed positions (the three forms
// with list buttons), and the sign-in page, on SQLite and PostgreSQL.
import type { ActionFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import * as login from "~/routes/_auth+/login";
import * as groupFilters from "~/routes/$orgId+/_marketing+/groups+/$id.filters";
import * as newGroup from "~/routes/$orgId+/_marketing+/groups+/new";
import * as surveyCreate from "~/routes/$orgId+/_surveys+/surveys+/create";
import * as layoutPage from "~/routes/$orgId+/_networks+/venues+/$venueId+/layout";
import { MALFORMED_FORM_MESSAGE } from "~/services/forms.server";
import { makeOrg, makeRequest, run, sessionCookie } from "../fixtures";
import { makeAccessPoint, makeVenue } from "../fixtures/layout";

const HOSTILE_INTENTS = ["' OR 1=1 --", "-1", "x".repeat(4000), "null", '{"type":"insert"}', '{"payload":{}}', "[]"];
const label = (value: string) => (value.length > 40 ? `${value.slice(0, 4)}… (${value.length} characters)` : value);

type Action = (args: ActionFunctionArgs) => Promise<unknown>;

async function post(action: Action, path: string, params: Record<string, string>, form: Record<string, string>, cookie?: string) {
  return run(() => action({ request: makeRequest(path, { form, cookie }), params, context: {} }));
}

async function expectRefused(res: Response, label: string) {
  expect(res.status, label).toBe(400);
  expect(await res.json(), label).toEqual({ message: MALFORMED_FORM_MESSAGE });
}

async function owner() {
  const { org, owner } = await makeOrg(`Intents ${Math.random()}`);
  return { org, cookie: await sessionCookie(owner.id, org.id) };
}

describe("a form whose conform controls are not conform's", () => {
  it.each(HOSTILE_INTENTS.map((v) => [label(v), v]))("answers the survey form's __intent__ %s with 400", async (_label, intent) => {
    const { org, cookie } = await owner();
    const res = await post(
      surveyCreate.action,
      `/${org.id}/surveys/create`,
      { orgId: String(org.id) },
      { name: "Feedback", status: "Active", "questions[0].question": "How was it?", "questions[0].type": "text", __intent__: intent },
      cookie,
    );
    await expectRefused(res, label(intent));
  });

  it("answers a group's filters and a floor plan's positions with 400 for every hostile __intent__, and a hostile __state__ too", async () => {
    const { org, cookie } = await owner();
    const created = await post(newGroup.action, `/${org.id}/groups/new`, { orgId: String(org.id) }, { name: "Regulars" }, cookie);
    const groupId = /groups\/(\d+)\/filters$/.exec(created.headers.get("Location")!)![1];
    const venue = await makeVenue(org.id, { name: "Java House" });
    const ap = await makeAccessPoint(org.id, venue.id, { name: "Lobby" });
    const filters = { byDate: "NO", connections: "0", days: "0", "profile[0].condition": "AND", "profile[0].field": "firstName" };
    const positions = { intent: "positions", "positions[0].id": String(ap.id), "positions[0].layout_x": "1", "positions[0].layout_y": "2" };
    for (const [name, value] of [...HOSTILE_INTENTS.map((v) => ["__intent__", v]), ["__state__", "' OR 1=1 --"]]) {
      await expectRefused(
        await post(
          groupFilters.action,
          `/${org.id}/groups/${groupId}/filters`,
          { orgId: String(org.id), id: groupId },
          { ...filters, [name]: value },
          cookie,
        ),
        `filters ${name}=${label(value)}`,
      );
      await expectRefused(
        await post(
          layoutPage.action,
          `/${org.id}/venues/${venue.id}/layout`,
          { orgId: String(org.id), venueId: String(venue.id) },
          { ...positions, [name]: value },
          cookie,
        ),
        `positions ${name}=${label(value)}`,
      );
    }
  });

  it("answers the sign-in page with 400 too (a form without list buttons reads the controls all the same)", async () => {
    for (const intent of HOSTILE_INTENTS) {
      await expectRefused(
        await post(login.action, "/login", {}, { login_id: "a@example.com", password: "whatever1", __intent__: intent }),
        intent,
      );
    }
  });
});
