import { describe, expect, it } from "vitest";
import {
  addRow,
  dashletsIn,
  defaultLayout,
  emptyLayout,
  LAYOUT_ERRORS,
  MAX_ROWS,
  moveRow,
  removeDashlet,
  removeRow,
  ROW_LAYOUT_KEYS,
  ROW_LAYOUTS,
  rowLayoutOf,
  serializeLayout,
  setDashlet,
  type DashboardLayout,
  type EditResult,
} from "~/lib/dashboard-layout";
import { parseLayout } from "~/lib/dashboard-layout-schema";

const ok = (r: EditResult): DashboardLayout => {
  if (!r.ok) throw new Error(r.error);
  return r.layout;
};

describe("dashboard layout JSON", () => {
  it("offers the seven row layouts of the spec", () => {
    expect(ROW_LAYOUT_KEYS.map((k) => ROW_LAYOUTS[k].label)).toEqual([
      "Full width",
      "Half and half",
      "1/4, 1/4 and 1/2",
      "Four quarters",
      "1/4 and 3/4",
      "1/3 and 2/3",
      "Three thirds",
    ]);
  });

  it("gives a new user (nothing stored) a default layout with the trend, top lists, pies and who is online", () => {
    const parsed = parseLayout(null);
    expect(parsed.status).toBe("unset");
    expect(dashletsIn(parsed.layout)).toEqual(
      expect.arrayContaining(["connections_graph", "top_networks", "top_access_points", "auth_mode_pie", "who_is_online"]),
    );
    expect(parseLayout("  ").status).toBe("unset");
  });

  it("round-trips a layout through JSON and fills the default width of 'width-full'", () => {
    const layout = ok(setDashlet(ok(addRow(emptyLayout(), "half_half")), "c2", "footfall"));
    expect(parseLayout(serializeLayout(layout))).toEqual({ status: "ok", layout });
    const stored = JSON.stringify({
      content: [{ id: 1, type: "row", content: [{ id: "c", type: "col", content: [{ id: "d", type: "dashlet", dashlet: "footfall" }] }] }],
    });
    const parsed = parseLayout(stored);
    expect(parsed.status).toBe("ok");
    expect(parsed.layout.content[0].id).toBe("1");
    expect(parsed.layout.content[0].content[0].width).toBe("width-full");
    expect(parsed.layout.content[0].content[0].content[0]).toEqual({
      id: "d",
      type: "dashlet",
      dashlet: "footfall",
      width: "width-full",
      content: [],
    });
  });

  it("keeps an emptied dashboard empty (the page then opens edit mode)", () => {
    expect(parseLayout('{"content":[]}')).toEqual({ status: "ok", layout: { content: [] } });
  });

  it.each([
    ["broken JSON", "{content:"],
    ["not an object", "[1,2]"],
    [
      "an unknown dashlet",
      JSON.stringify({
        content: [
          {
            id: "r",
            type: "row",
            content: [{ id: "c", type: "col", width: "width-full", content: [{ id: "d", type: "dashlet", dashlet: "<script>" }] }],
          },
        ],
      }),
    ],
    [
      "widths that are no layout",
      JSON.stringify({ content: [{ id: "r", type: "row", content: [{ id: "c", type: "col", width: "width-1-2", content: [] }] }] }),
    ],
    ["a hostile id", JSON.stringify({ content: [{ id: 'r"><img>', type: "row", content: [{ id: "c", type: "col", content: [] }] }] })],
    ["duplicate ids", JSON.stringify({ content: [{ id: "r", type: "row", content: [{ id: "r", type: "col", content: [] }] }] })],
    [
      "two dashlets in one cell",
      JSON.stringify({
        content: [
          {
            id: "r",
            type: "row",
            content: [
              {
                id: "c",
                type: "col",
                content: [
                  { id: "a", type: "dashlet", dashlet: "footfall" },
                  { id: "b", type: "dashlet", dashlet: "dwell_time" },
                ],
              },
            ],
          },
        ],
      }),
    ],
    ["a huge text", JSON.stringify({ content: [], pad: "x".repeat(40_000) })],
  ])("rejects %s and falls back to the default layout", (_name, text) => {
    const parsed = parseLayout(text);
    expect(parsed.status).toBe("invalid");
    expect(parsed.layout).toEqual(defaultLayout());
  });

  it("rejects more rows than the limit", () => {
    let layout = emptyLayout();
    for (let i = 0; i < MAX_ROWS; i++) layout = ok(addRow(layout, "full"));
    expect(addRow(layout, "full")).toEqual({ ok: false, error: LAYOUT_ERRORS.tooManyRows });
    const tooMany = { content: [...layout.content, ...layout.content.map((r) => ({ ...r, id: `x${r.id}`, content: [] }))] };
    expect(parseLayout(JSON.stringify(tooMany)).status).toBe("invalid");
  });
});

describe("dashboard edits", () => {
  it("adds a row with the chosen layout and empty cells, with fresh ids", () => {
    const layout = ok(addRow(defaultLayout(), "quarter_quarter_half"));
    const row = layout.content.at(-1)!;
    expect(rowLayoutOf(row)).toBe("quarter_quarter_half");
    expect(row.content.map((c) => c.content.length)).toEqual([0, 0, 0]);
    const ids = serializeLayout(layout).match(/"id":"[^"]+"/g)!;
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("puts a dashlet in each cell of a new row", () => {
    let layout = ok(addRow(emptyLayout(), "three_thirds"));
    const cols = layout.content[0].content.map((c) => c.id);
    layout = ok(setDashlet(layout, cols[0], "os_doughnut"));
    layout = ok(setDashlet(layout, cols[2], "browser_doughnut"));
    expect(layout.content[0].content.map((c) => c.content[0]?.dashlet ?? null)).toEqual(["os_doughnut", null, "browser_doughnut"]);
    expect(setDashlet(layout, "nope", "footfall")).toEqual({ ok: false, error: LAYOUT_ERRORS.missing });
  });

  it("removes a dashlet, and the row once it holds none", () => {
    let layout = ok(addRow(emptyLayout(), "half_half"));
    const [a, b] = layout.content[0].content.map((c) => c.id);
    layout = ok(setDashlet(ok(setDashlet(layout, a, "footfall")), b, "dwell_time"));
    const footfallId = layout.content[0].content[0].content[0].id;
    const dwellId = layout.content[0].content[1].content[0].id;
    layout = ok(removeDashlet(layout, footfallId));
    expect(layout.content).toHaveLength(1);
    expect(dashletsIn(layout)).toEqual(["dwell_time"]);
    layout = ok(removeDashlet(layout, dwellId));
    expect(layout.content).toHaveLength(0);
    expect(removeDashlet(layout, dwellId)).toEqual({ ok: false, error: LAYOUT_ERRORS.missing });
  });

  it("leaves other rows with empty cells alone when removing a dashlet", () => {
    let layout = ok(addRow(ok(addRow(emptyLayout(), "full")), "full"));
    layout = ok(setDashlet(layout, layout.content[1].content[0].id, "footfall"));
    layout = ok(removeDashlet(layout, layout.content[1].content[0].content[0].id));
    expect(layout.content).toHaveLength(1);
  });

  it("removes a whole row", () => {
    const layout = defaultLayout();
    const after = ok(removeRow(layout, layout.content[1].id));
    expect(after.content.map((r) => r.id)).toEqual([layout.content[0].id, ...layout.content.slice(2).map((r) => r.id)]);
    expect(removeRow(layout, "zzz").ok).toBe(false);
  });

  it("moves a row by swapping it with its neighbour, and does nothing at the ends", () => {
    const layout = defaultLayout();
    const ids = layout.content.map((r) => r.id);
    expect(ok(moveRow(layout, ids[1], "up")).content.map((r) => r.id)).toEqual([ids[1], ids[0], ...ids.slice(2)]);
    expect(ok(moveRow(layout, ids[1], "down")).content.map((r) => r.id)).toEqual([ids[0], ids[2], ids[1], ...ids.slice(3)]);
    expect(ok(moveRow(layout, ids[0], "up")).content.map((r) => r.id)).toEqual(ids);
    expect(ok(moveRow(layout, ids.at(-1)!, "down")).content.map((r) => r.id)).toEqual(ids);
    expect(moveRow(layout, "missing", "up").ok).toBe(false);
  });
});
