// The personal dashboard (docs/guide/dashboard.md#dashlets, #edit-mode):
// JSON `{ content: [row…] }`, a row holds columns, a column holds at most one dashlet. Every node is
// `{ id, type, dashlet?, width, content }`. Pure functions: the seven row layouts and the edits (add row,
// pick a dashlet per cell, remove, move). Reading a stored layout (zod) is in ./dashboard-layout-schema,
// so the dashboard's browser bundle, which needs only this file, carries no zod.

export const DASHLETS = {
  organization_overview: "Organization overview",
  who_is_online: "Who is online",
  recent_connections: "Recent connections",
  connections_graph: "Connections trend",
  top_networks: "Top networks",
  top_access_points: "Top access points",
  auth_mode_pie: "Authorization modes",
  device_type_pie: "Device types",
  os_doughnut: "Operating systems",
  device_brand_doughnut: "Device brands",
  browser_doughnut: "Browsers",
  campaign_summary: "Campaign summary",
  dwell_time: "Dwell time",
  footfall: "Footfall",
  access_point_status: "Access point status",
  indoor_heatmap: "Indoor heatmap",
} as const;

export type DashletKey = keyof typeof DASHLETS;
export const DASHLET_KEYS = Object.keys(DASHLETS) as [DashletKey, ...DashletKey[]];

export const WIDTHS = ["width-full", "width-1-2", "width-1-4", "width-3-4", "width-1-3", "width-2-3"] as const;
export type Width = (typeof WIDTHS)[number];
export const DEFAULT_WIDTH: Width = "width-full";

/** The seven row layouts (docs/guide/dashboard.md#edit-mode), as column widths. */
export const ROW_LAYOUTS = {
  full: { label: "Full width", widths: ["width-full"] },
  half_half: { label: "Half and half", widths: ["width-1-2", "width-1-2"] },
  quarter_quarter_half: { label: "1/4, 1/4 and 1/2", widths: ["width-1-4", "width-1-4", "width-1-2"] },
  four_quarters: { label: "Four quarters", widths: ["width-1-4", "width-1-4", "width-1-4", "width-1-4"] },
  quarter_three_quarters: { label: "1/4 and 3/4", widths: ["width-1-4", "width-3-4"] },
  third_two_thirds: { label: "1/3 and 2/3", widths: ["width-1-3", "width-2-3"] },
  three_thirds: { label: "Three thirds", widths: ["width-1-3", "width-1-3", "width-1-3"] },
} as const satisfies Record<string, { label: string; widths: readonly Width[] }>;

export type RowLayoutKey = keyof typeof ROW_LAYOUTS;
export const ROW_LAYOUT_KEYS = Object.keys(ROW_LAYOUTS) as [RowLayoutKey, ...RowLayoutKey[]];

export interface DashletNode {
  id: string;
  type: "dashlet";
  dashlet: DashletKey;
  width: Width;
  content: [];
}
export interface ColNode {
  id: string;
  type: "col";
  width: Width;
  content: DashletNode[];
}
export interface RowNode {
  id: string;
  type: "row";
  width: Width;
  content: ColNode[];
}
export interface DashboardLayout {
  content: RowNode[];
}

/** Bounds that keep a stored layout (and the work of rendering it) small. */
export const MAX_ROWS = 40;
export const MAX_LAYOUT_CHARS = 32_000;

/** Every node id of a layout (rows, columns, dashlets). */
export function allIds(layout: DashboardLayout): string[] {
  return layout.content.flatMap((row) => [row.id, ...row.content.flatMap((col) => [col.id, ...col.content.map((d) => d.id)])]);
}

/** The layout key a row's column widths follow, or null. */
export function rowLayoutOf(row: { content: readonly { width: Width }[] }): RowLayoutKey | null {
  const widths = row.content.map((c) => c.width).join(",");
  return ROW_LAYOUT_KEYS.find((k) => ROW_LAYOUTS[k].widths.join(",") === widths) ?? null;
}

export type ParsedLayout =
  { status: "unset"; layout: DashboardLayout } | { status: "ok"; layout: DashboardLayout } | { status: "invalid"; layout: DashboardLayout };

export function serializeLayout(layout: DashboardLayout): string {
  return JSON.stringify(layout);
}

/** The dashlet keys a layout shows, each once, in reading order. */
export function dashletsIn(layout: DashboardLayout): DashletKey[] {
  return [...new Set(layout.content.flatMap((row) => row.content.flatMap((col) => col.content.map((d) => d.dashlet))))];
}

/** A fresh id: one more than the largest number used in the layout's ids, with a prefix per node type. */
function idMaker(layout: DashboardLayout) {
  let n = allIds(layout).reduce((max, i) => Math.max(max, Number(i.replace(/^\D+/, "")) || 0), 0);
  return (prefix: "r" | "c" | "d") => `${prefix}${++n}`;
}

function buildRow(next: ReturnType<typeof idMaker>, layoutKey: RowLayoutKey, dashlets: readonly (DashletKey | null)[] = []): RowNode {
  return {
    id: next("r"),
    type: "row",
    width: DEFAULT_WIDTH,
    content: ROW_LAYOUTS[layoutKey].widths.map((w, i) => {
      const dashlet = dashlets[i] ?? null;
      return {
        id: next("c"),
        type: "col" as const,
        width: w,
        content: dashlet ? [{ id: next("d"), type: "dashlet" as const, dashlet, width: DEFAULT_WIDTH, content: [] as [] }] : [],
      };
    }),
  };
}

/** What a new user sees: the trend, the top lists, the shares, and who is online. */
export function defaultLayout(): DashboardLayout {
  const layout: DashboardLayout = { content: [] };
  const next = idMaker(layout);
  layout.content.push(
    buildRow(next, "full", ["organization_overview"]),
    buildRow(next, "full", ["connections_graph"]),
    buildRow(next, "half_half", ["top_networks", "top_access_points"]),
    buildRow(next, "three_thirds", ["auth_mode_pie", "device_type_pie", "os_doughnut"]),
    buildRow(next, "full", ["who_is_online"]),
  );
  return layout;
}

export function emptyLayout(): DashboardLayout {
  return { content: [] };
}

export type EditResult = { ok: true; layout: DashboardLayout } | { ok: false; error: string };

export const LAYOUT_ERRORS = {
  tooManyRows: `A dashboard holds at most ${MAX_ROWS} rows.`,
  missing: "That part of the dashboard no longer exists. Reload the page to see your current dashboard.",
} as const;

/** Adds a row of the chosen layout at the end, its cells empty until a dashlet is picked for each. */
export function addRow(layout: DashboardLayout, layoutKey: RowLayoutKey): EditResult {
  if (layout.content.length >= MAX_ROWS) return { ok: false, error: LAYOUT_ERRORS.tooManyRows };
  const row = buildRow(idMaker(layout), layoutKey);
  return { ok: true, layout: { content: [...layout.content, row] } };
}

/** Puts a dashlet in an empty (or occupied: replaced) cell. */
export function setDashlet(layout: DashboardLayout, colId: string, dashlet: DashletKey): EditResult {
  const next = idMaker(layout);
  let found = false;
  const content = layout.content.map((row) => ({
    ...row,
    content: row.content.map((col) => {
      if (col.id !== colId) return col;
      found = true;
      return { ...col, content: [{ id: next("d"), type: "dashlet" as const, dashlet, width: DEFAULT_WIDTH, content: [] as [] }] };
    }),
  }));
  return found ? { ok: true, layout: { content } } : { ok: false, error: LAYOUT_ERRORS.missing };
}

/** Takes a dashlet out of its cell; a row left with no dashlet at all goes too. */
export function removeDashlet(layout: DashboardLayout, dashletId: string): EditResult {
  let found = false;
  const content = layout.content.flatMap((row) => {
    if (!row.content.some((col) => col.content.some((d) => d.id === dashletId))) return [row];
    found = true;
    const cols = row.content.map((col) => ({ ...col, content: col.content.filter((d) => d.id !== dashletId) }));
    return cols.some((col) => col.content.length > 0) ? [{ ...row, content: cols }] : [];
  });
  return found ? { ok: true, layout: { content } } : { ok: false, error: LAYOUT_ERRORS.missing };
}

/** Removes a whole row (e.g. one added with the wrong layout). */
export function removeRow(layout: DashboardLayout, rowId: string): EditResult {
  const content = layout.content.filter((row) => row.id !== rowId);
  return content.length === layout.content.length ? { ok: false, error: LAYOUT_ERRORS.missing } : { ok: true, layout: { content } };
}

/** Swaps a row with its neighbour; at either end nothing changes (docs/guide/dashboard.md#edit-mode). */
export function moveRow(layout: DashboardLayout, rowId: string, direction: "up" | "down"): EditResult {
  const index = layout.content.findIndex((row) => row.id === rowId);
  if (index < 0) return { ok: false, error: LAYOUT_ERRORS.missing };
  const target = direction === "up" ? index - 1 : index + 1;
  if (target < 0 || target >= layout.content.length) return { ok: true, layout };
  const content = [...layout.content];
  [content[index], content[target]] = [content[target], content[index]];
  return { ok: true, layout: { content } };
}
