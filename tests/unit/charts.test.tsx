import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BarChart, bucketLabel, EMPTY_CHART_MESSAGE, HeatmapChart, LineChart, PieChart, weekdayHourRows } from "~/components/charts";

const guests = [
  {
    id: "Guests",
    points: [
      { x: "01-11", y: 3 },
      { x: "02-11", y: 7 },
      { x: "03-11", y: 0 },
    ],
  },
];

describe("server-rendered charts", () => {
  it("draws a line chart as SVG with its title and a data table of the figures", () => {
    const html = renderToString(<LineChart title="Guests count" series={guests} yLegend="Guests" />);
    expect(html).toContain("<svg");
    expect(html).toContain("Guests count");
    expect(html).toMatch(/<details[^>]*>.*Data table/);
    expect(html).toMatch(/<th scope="row"[^>]*>02-11<\/th><td[^>]*>7<\/td>/);
    expect(html).not.toContain(EMPTY_CHART_MESSAGE);
  });

  it("labels the drawing with the title for assistive technology", () => {
    const html = renderToString(<BarChart title="Footfall" series={guests} />);
    const titleId = html.match(/<span id="([^"]+)"[^>]*>Footfall<\/span>/)?.[1];
    expect(titleId).toBeTruthy();
    expect(html).toContain(`role="img" aria-labelledby="${titleId}"`);
    expect(html).toContain("<svg");
  });

  it("draws grouped bars for several series with a column per series in the table", () => {
    const html = renderToString(
      <BarChart
        title="Bandwidth"
        yLegend="GB"
        series={[
          { id: "Upload", points: [{ x: "a", y: 1.5 }] },
          { id: "Download", points: [{ x: "a", y: 2.25 }] },
        ]}
      />,
    );
    expect(html).toContain("Upload (GB)");
    expect(html).toContain("Download (GB)");
    expect(html).toMatch(/<rect[^>]*width="\d/);
  });

  it("shows the empty state instead of a drawing when every value is zero or there are no points", () => {
    for (const series of [[], [{ id: "Guests", points: [{ x: "a", y: 0 }] }]]) {
      const html = renderToString(<LineChart title="Guests count" series={series} />);
      expect(html).toContain(EMPTY_CHART_MESSAGE);
      expect(html).not.toContain("<svg");
    }
  });

  it("draws pies and doughnuts with the share of each slice, leaving out zero slices", () => {
    const slices = [
      { label: "Android", value: 3 },
      { label: "iOS", value: 1 },
      { label: "Other", value: 0 },
    ];
    const pie = renderToString(<PieChart title="Operating systems" slices={slices} />);
    const doughnut = renderToString(<PieChart title="Operating systems" slices={slices} doughnut />);
    for (const html of [pie, doughnut]) {
      expect(html).toContain("<svg");
      expect(html).toContain("75.0%");
      expect(html).toContain("25.0%");
      expect(html).not.toContain(">Other<");
    }
    expect(doughnut).not.toEqual(pie);
    expect(renderToString(<PieChart title="OS" slices={[{ label: "x", value: 0 }]} />)).toContain(EMPTY_CHART_MESSAGE);
  });

  it("names every slice with its figure and share in a legend under the pie, and prints no numbers on the slices", () => {
    const html = renderToString(
      <PieChart
        title="Authorization modes"
        slices={[
          { label: "Click-through", value: 1234 },
          { label: "M-Pesa", value: 766 },
        ]}
      />,
    );
    const legend = html.slice(html.indexOf("</svg>"), html.indexOf("<details"));
    expect(legend).toMatch(/Click-through<\/span>.*1,234.*61\.7%/);
    expect(legend).toMatch(/M-Pesa<\/span>.*766.*38\.3%/);
    const svg = html.slice(html.indexOf("<svg"), html.indexOf("</svg>"));
    expect(svg).not.toMatch(/<text/);
  });

  it("labels every hour of a wide heatmap and thins the labels of a narrow one", () => {
    const rows = weekdayHourRows([{ weekday: 0, hour: 9, footfall: 4 }]);
    const hourLabels = (html: string) => [...html.matchAll(/<text[^>]*>(\d\d)<\/text>/g)].map((m) => m[1]);
    expect(hourLabels(renderToString(<HeatmapChart title="Traffic" rows={rows} width={720} />))).toHaveLength(24);
    const narrow = hourLabels(renderToString(<HeatmapChart title="Traffic" rows={rows} width={300} />));
    expect(narrow.length).toBeLessThanOrEqual(12);
    expect(narrow[0]).toBe("00");
  });

  it("draws the weekday × hour heatmap from sparse analytics cells", () => {
    const rows = weekdayHourRows([
      { weekday: 0, hour: 9, footfall: 4 },
      { weekday: 6, hour: 23, footfall: 2 },
      { weekday: 0, hour: 9, footfall: 1 },
    ]);
    expect(rows).toHaveLength(7);
    expect(rows[0].id).toBe("Mon");
    expect(rows[0].cells[9]).toEqual({ x: "09", value: 5 });
    expect(rows[6].cells[23].value).toBe(2);
    const html = renderToString(<HeatmapChart title="Traffic flow" rows={rows} />);
    expect(html).toContain("<svg");
    expect(html).toContain("Traffic flow");
    expect(renderToString(<HeatmapChart title="Traffic flow" rows={weekdayHourRows([])} />)).toContain(EMPTY_CHART_MESSAGE);
  });

  it("labels hourly and daily buckets in UTC", () => {
    const t = Date.UTC(2026, 10, 21, 14, 0, 0);
    expect(bucketLabel(t, "hour", 0)).toBe("21-11 14:00");
    expect(bucketLabel(t, "day", 0)).toBe("21-11-2026");
    // In Nairobi (UTC+03:00) the same instant is 17:00.
    expect(bucketLabel(t, "hour", 3 * 3_600_000)).toBe("21-11 17:00");
  });
});
