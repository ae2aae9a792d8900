import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { DASHBOARD_MESSAGES, dashboardEditSchema } from "~/lib/schemas/dashboard";

const errorsOf = (submission: { status?: string; error?: Record<string, string[] | null> | null }) =>
  submission.status === "error" ? Object.values(submission.error ?? {}).flat() : [];

const form = (entries: Record<string, string>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(entries)) fd.append(k, v);
  return fd;
};

describe("dashboard edit form", () => {
  it("reads each intent", () => {
    expect(parseWithZod(form({ intent: "add-row", layout: "three_thirds" }), { schema: dashboardEditSchema }).status).toBe("success");
    expect(parseWithZod(form({ intent: "set-dashlet", col: "c3", dashlet: "footfall" }), { schema: dashboardEditSchema }).status).toBe(
      "success",
    );
    expect(parseWithZod(form({ intent: "move-row", row: "r1", direction: "down" }), { schema: dashboardEditSchema }).status).toBe(
      "success",
    );
  });

  it("answers a missing layout or dashlet with the form's message", () => {
    const noLayout = parseWithZod(form({ intent: "add-row" }), { schema: dashboardEditSchema });
    expect(noLayout.status).toBe("error");
    expect(errorsOf(noLayout)).toContain(DASHBOARD_MESSAGES.layout);
    const badDashlet = parseWithZod(form({ intent: "set-dashlet", col: "c1", dashlet: "nope" }), { schema: dashboardEditSchema });
    expect(errorsOf(badDashlet)).toContain(DASHBOARD_MESSAGES.dashlet);
  });

  it("refuses unknown intents and hostile ids", () => {
    expect(parseWithZod(form({ intent: "drop-table" }), { schema: dashboardEditSchema }).status).toBe("error");
    expect(parseWithZod(form({ intent: "remove-row", row: "r1'; --" }), { schema: dashboardEditSchema }).status).toBe("error");
  });
});
