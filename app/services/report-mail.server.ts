// The e-mail of a subscribed report: its figures in the body (plain text and simple HTML) and the
// report as a CSV attachment (`overview.csv`, `new_visitors.csv` …). The day is a UTC day; a report
// sent at hour H of that day holds the day's data up to then (hour 24: the whole day).
import type { AnalyticsScope } from "~/lib/analytics";
import { DAY_MS, formatDayMonthYear } from "~/lib/date-range";
import { formatBytes, formatClock, formatCount } from "~/lib/format";
import { formatBucket, isVisitorReport, reportFileName, reportTitle, type ReportSlug, type VisitorReport } from "~/lib/reports";
import { csvFile, csvLines } from "~/lib/csv-line";
import { clockLabel, formatOffset, type OrgClock } from "~/lib/time-zone";
import type { Email } from "./email.server";
import { average, connectionModes, footfallReport, overview } from "./reports.server";
import { VISITOR_CSV_HEADER, visitorBatches, visitorCsvRow, type VisitorRow } from "./report-visitors.server";

/** An attachment never grows past this many customers; the body says when the list was cut. */
export const MAX_ATTACHED_VISITORS = 50_000;
const LISTED_IN_BODY = 20;

interface Section {
  /** Rows of label/value pairs, or a table with a header. */
  header: string[];
  rows: (string | number)[][];
}

export interface ReportMailInput {
  organizationId: number;
  organizationName: string;
  report: ReportSlug;
  /** YYYY-MM-DD, a day of the organisation's clock. */
  day: string;
  clock: OrgClock;
  /** The subscriber may see guests' names and contacts (view_clients); without it a visitor report mails its total only. */
  personalData: boolean;
}

export async function buildReportEmail(input: ReportMailInput): Promise<Omit<Email, "to">> {
  const offsetMs = input.clock.offsetMs;
  const startMs = Date.parse(`${input.day}T00:00:00.000Z`) - offsetMs;
  const scope: AnalyticsScope = { organizationId: input.organizationId, range: { startMs, endMs: startMs + DAY_MS, offsetMs } };
  const title = reportTitle(input.report);
  const heading = `${title} report of ${input.organizationName} for ${formatDayMonthYear(input.day)} (${clockLabel(input.clock)})`;
  const { sections, csv, note } = isVisitorReport(input.report)
    ? await (input.personalData ? visitorContent(scope, input.report) : visitorTotal(scope, input.report))
    : input.report === "overview"
      ? await overviewContent(scope)
      : await footfallContent(scope);
  const text = [
    heading,
    "",
    ...sections.flatMap((s) => [textTable(s), ""]),
    note ?? "",
    `The full report is attached as ${reportFileName(input.report)}.`,
  ]
    .filter((line, i, all) => line !== "" || all[i - 1] !== "")
    .join("\n");
  const html = [
    `<h1 style="font-size:18px">${escapeHtml(heading)}</h1>`,
    ...sections.map(htmlTable),
    note ? `<p>${escapeHtml(note)}</p>` : "",
    `<p>The full report is attached as ${escapeHtml(reportFileName(input.report))}.</p>`,
  ].join("\n");
  return {
    subject: `${input.organizationName}: ${title} report for ${formatDayMonthYear(input.day)}`,
    text,
    html,
    attachments: [{ filename: reportFileName(input.report), content: csv, contentType: "text/csv; charset=utf-8" }],
  };
}

async function overviewContent(scope: AnalyticsScope) {
  const [figures, modes] = await Promise.all([overview(scope), connectionModes(scope)]);
  const daily = (n: number) => average(n, figures.days);
  const rows: (string | number)[][] = [
    ["Footfall", formatCount(figures.footfall), formatCount(daily(figures.footfall))],
    ["Connections", formatCount(figures.connections), formatCount(daily(figures.connections))],
    ["Abandoned", formatCount(figures.abandoned), formatCount(daily(figures.abandoned))],
    ["New customers", formatCount(figures.newCustomers), formatCount(daily(figures.newCustomers))],
    ["Repeat customers", formatCount(figures.repeatCustomers), formatCount(daily(figures.repeatCustomers))],
    ["Total customers", formatCount(figures.totalCustomers), formatCount(daily(figures.totalCustomers))],
    ["Upload", formatBytes(figures.upload), formatBytes(daily(figures.upload))],
    ["Download", formatBytes(figures.download), formatBytes(daily(figures.download))],
    ["Bandwidth", formatBytes(figures.bandwidth), formatBytes(daily(figures.bandwidth))],
    ["Dwell time", formatClock(figures.dwellTime), formatClock(daily(figures.dwellTime))],
  ];
  const modeRows = modes.map((m) => [m.mode, m.daily, m.weekly, m.monthly, m.annual, m.connections]);
  const modeHeader = ["Connection mode", "Daily average", "Weekly average", "Monthly average", "Annual average", "Total"];
  const csv = csvFile([["Figure", "Total", "Daily average"], ...rows]) + "\n" + csvLines([modeHeader, ...modeRows]);
  return {
    sections: [
      { header: ["Figure", "Total", "Daily average"], rows },
      { header: modeHeader, rows: modeRows.length ? modeRows : [["No connections", 0, 0, 0, 0, 0]] },
    ],
    csv,
    note: null,
  };
}

async function footfallContent(scope: AnalyticsScope) {
  const report = await footfallReport(scope);
  const rows = report.points.map((p) => [formatBucket(p.time, report.bucket, scope.range.offsetMs), p.footfall]);
  const header = [report.bucket === "hour" ? `Hour (${formatOffset(scope.range.offsetMs)})` : "Day", "Footfall"];
  return {
    sections: [
      { header: ["Figure", "Total"], rows: [["Footfall", formatCount(report.total)]] },
      { header, rows: rows.length ? rows : [["No portal visits", 0]] },
    ],
    csv: csvFile([header, ...rows]),
    note: null,
  };
}

async function visitorContent(scope: AnalyticsScope, report: VisitorReport) {
  const all: VisitorRow[] = [];
  let truncated = false;
  for await (const batch of visitorBatches(scope, report)) {
    const room = MAX_ATTACHED_VISITORS - all.length;
    if (batch.length > room) {
      all.push(...batch.slice(0, room));
      truncated = true;
      break;
    }
    all.push(...batch);
  }
  const listed = all
    .slice(0, LISTED_IN_BODY)
    .map((v, i) => [i + 1, v.name || v.identity, v.phone_number ?? "", v.email_address ?? "", v.connectionsCount]);
  const more = all.length > LISTED_IN_BODY ? `…and ${formatCount(all.length - LISTED_IN_BODY)} more in the attachment.` : null;
  return {
    sections: [
      { header: ["Figure", "Total"], rows: [["Visitors", truncated ? `more than ${formatCount(all.length)}` : formatCount(all.length)]] },
      { header: ["#", "Name", "Phone Number", "Email", "Connections"], rows: listed.length ? listed : [["", "No visitors", "", "", ""]] },
    ],
    csv: csvFile([VISITOR_CSV_HEADER, ...all.map((v, i) => visitorCsvRow(v, i + 1))]),
    note: truncated
      ? `The attachment holds the first ${formatCount(MAX_ATTACHED_VISITORS)} visitors; export the full list from the report page.`
      : more,
  };
}

/** A visitor report for a subscriber without view_clients: how many visitors, not who. */
async function visitorTotal(scope: AnalyticsScope, report: VisitorReport) {
  let count = 0;
  for await (const batch of visitorBatches(scope, report)) count += batch.length;
  const rows = [["Visitors", formatCount(count)]];
  return {
    sections: [{ header: ["Figure", "Total"], rows }],
    csv: csvFile([["Figure", "Total"], ...rows]),
    note: "Visitors' names and contacts are sent to members whose role has the View clients permission.",
  };
}

function textTable({ header, rows }: Section): string {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  return all
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function htmlTable({ header, rows }: Section): string {
  const cell = (tag: "th" | "td", v: string | number) =>
    `<${tag} style="border:1px solid #cbd5e1;padding:4px 8px;text-align:left">${escapeHtml(String(v))}</${tag}>`;
  return `<table style="border-collapse:collapse;margin:12px 0"><thead><tr>${header.map((h) => cell("th", h)).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((v) => cell("td", v)).join("")}</tr>`)
    .join("")}</tbody></table>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
