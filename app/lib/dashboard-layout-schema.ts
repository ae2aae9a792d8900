// Reading a stored dashboard layout (`users.dashboard`): zod checks its shape, anything corrupt or
// hostile is rejected. Apart from ./dashboard-layout so the dashboard's browser bundle carries no zod;
// only the server reads stored layouts.
import { z } from "zod";
import {
  allIds,
  DASHLET_KEYS,
  DEFAULT_WIDTH,
  defaultLayout,
  MAX_LAYOUT_CHARS,
  MAX_ROWS,
  rowLayoutOf,
  WIDTHS,
  type DashboardLayout,
  type ParsedLayout,
} from "./dashboard-layout";

const id = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform(String)
  .pipe(z.string().regex(/^[A-Za-z0-9_-]{1,40}$/));
const width = z.enum(WIDTHS).default(DEFAULT_WIDTH);

const dashletSchema = z.object({
  id,
  type: z.literal("dashlet"),
  dashlet: z.enum(DASHLET_KEYS),
  width,
  content: z
    .array(z.never())
    .max(0)
    .default([])
    .transform((): [] => []),
});
const colSchema = z.object({ id, type: z.literal("col"), width, content: z.array(dashletSchema).max(1).default([]) });
const rowSchema = z
  .object({ id, type: z.literal("row"), width, content: z.array(colSchema).min(1).max(4) })
  .refine((row) => rowLayoutOf(row) !== null, "The columns of a row must follow one of the seven layouts.");

export const layoutSchema = z.object({ content: z.array(rowSchema).max(MAX_ROWS) }).refine((layout) => {
  const ids = allIds(layout as DashboardLayout);
  return new Set(ids).size === ids.length;
}, "Node ids must be unique.");

/**
 * Reads `users.dashboard`. Never set → the default layout; valid JSON of the right shape → it;
 * anything else (broken JSON, unknown dashlets, odd widths, too big) → the default, flagged invalid
 * so the page can say so; the stored text is left alone until the user saves a change.
 */
export function parseLayout(text: string | null | undefined): ParsedLayout {
  if (text === null || text === undefined || text.trim() === "") return { status: "unset", layout: defaultLayout() };
  if (text.length > MAX_LAYOUT_CHARS) return { status: "invalid", layout: defaultLayout() };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { status: "invalid", layout: defaultLayout() };
  }
  const parsed = layoutSchema.safeParse(json);
  return parsed.success ? { status: "ok", layout: parsed.data as DashboardLayout } : { status: "invalid", layout: defaultLayout() };
}
