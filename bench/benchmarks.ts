// The benchmarks `npm run bench -- <name>` runs (bench/run.ts): bench/<name>.bench.ts, with a line
// for the list. Each file's opening comment describes it and its options in full.
export const BENCHMARKS: Record<string, { summary: string; exposeGc?: boolean }> = {
  ads: { summary: "choosing and logging a banner on the connect page's path, and the ads report" },
  analytics: { summary: "every analytics call over 1, 30 and 365 days of 5,000,000 connections; ingest with the roll-ups on and off" },
  broadcast: { summary: "a broadcast's e-mail and SMS to N recipients, the worker killed half-way (exactly once)" },
  connections: { summary: "the connections list and the connections.csv export on 5,000,000 connections" },
  generator: { summary: "the demo-data generator's speed, 1,000,000 connections" },
  graphql: { summary: "the dashboard's figures through /graphql against the direct service calls (analytics' data, a build)" },
  groups: { summary: "counting a customer group's members and its first page (analytics' data)" },
  jobs: { summary: "job queue throughput with 1 and 4 claim loops, and claim latency" },
  mpesa: { summary: "100 M-Pesa purchases at once against the fake Daraja: time to grant after the callback (a build)" },
  pages: { summary: "whole pages over HTTP: time to first byte and bytes transferred (analytics' data, a build)" },
  portal: { summary: "the guest path over HTTP: the connect page, the whole guest flow, accounting (a build)" },
  radius: { summary: "Access-Requests and Interim-Updates through FreeRADIUS and Mlango (needs freeradius)" },
  reports: { summary: "report pages and the visitor export for 30 days of 5,000,000 connections" },
  subscriptions: { summary: "the subscriptions and M-Pesa transactions lists at 1,000,000 rows" },
  // It reports the heap after a collection, which needs global.gc.
  surveys: { summary: "a survey's report (page 1 and last) and its CSV export", exposeGc: true },
  vouchers: { summary: "generating 10,000 voucher codes, and redeeming among 1,000,000" },
};
