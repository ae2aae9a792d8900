import { z } from "zod";
import { DASHBOARD_MESSAGES } from "~/lib/dashboard-messages";
import { DASHLET_KEYS, ROW_LAYOUT_KEYS } from "~/lib/dashboard-layout";

// The dashboard's edit forms (docs/guide/dashboard.md#edit-mode): each submit button carries
// `intent`; node ids come from the page. Anything else is a 400 with a message, never a change.

export { DASHBOARD_MESSAGES };

const nodeId = z.string({ required_error: DASHBOARD_MESSAGES.node }).regex(/^[A-Za-z0-9_-]{1,40}$/, DASHBOARD_MESSAGES.node);

export const dashboardEditSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add-row"),
    layout: z.enum(ROW_LAYOUT_KEYS, { errorMap: () => ({ message: DASHBOARD_MESSAGES.layout }) }),
  }),
  z.object({
    intent: z.literal("set-dashlet"),
    col: nodeId,
    dashlet: z.enum(DASHLET_KEYS, { errorMap: () => ({ message: DASHBOARD_MESSAGES.dashlet }) }),
  }),
  z.object({ intent: z.literal("remove-dashlet"), dashlet_id: nodeId }),
  z.object({ intent: z.literal("remove-row"), row: nodeId }),
  z.object({ intent: z.literal("move-row"), row: nodeId, direction: z.enum(["up", "down"]) }),
]);

export type DashboardEdit = z.infer<typeof dashboardEditSchema>;
