// Example client of Mlango's data API: yesterday's usage summary of one organisation, with
// graphql-request. Run it as
//   MLANGO_URL=https://wifi.example.com MLANGO_TOKEN=<api token> MLANGO_ORG=<organisation id> npx tsx scripts/examples/usage-summary.ts
// An API token comes from POST /account/api/v1/auth/login (login_id, password) → data.api_token.
// The core, usageSummaryFor, is what tests/integration/graphql-example.test.ts runs.
import { pathToFileURL } from "node:url";
import { GraphQLClient, gql } from "graphql-request";

const QUERY = gql`
  query UsageSummary($day: String!) {
    organization {
      name
    }
    aggregateUsageSummary(startDate: $day, endDate: $day) {
      footfall
      connections
      abandoned
      new_customers
      repeat_customers
      formattedBandwidth
      dwell_time
      avg_dwell_time
    }
    venueUsageSummary(startDate: $day, endDate: $day, orderBy: "bandwidth", limit: 5) {
      venue_name
      connections
      formattedBandwidth
    }
  }
`;

export interface UsageSummary {
  organization: { name: string };
  aggregateUsageSummary: {
    footfall: number;
    connections: number;
    abandoned: number;
    new_customers: number;
    repeat_customers: number;
    formattedBandwidth: string;
    dwell_time: number;
    avg_dwell_time: number;
  };
  venueUsageSummary: { venue_name: string; connections: number; formattedBandwidth: string }[];
}

/** The UTC day before `now`, as YYYY-MM-DD. */
export function yesterday(now = Date.now()): string {
  return new Date(now - 86_400_000).toISOString().slice(0, 10);
}

/** Asks the data API at `baseUrl` for one day's figures (yesterday unless told). Throws on any error. */
export async function usageSummaryFor(options: {
  baseUrl: string;
  token: string;
  organizationId: string | number;
  day?: string;
}): Promise<UsageSummary & { day: string }> {
  const client = new GraphQLClient(new URL("/graphql", options.baseUrl).href, {
    headers: { Authorization: `Bearer ${options.token}`, "X-Organization-Id": String(options.organizationId) },
  });
  const day = options.day ?? yesterday();
  return { day, ...(await client.request<UsageSummary>(QUERY, { day })) };
}

function print(summary: UsageSummary & { day: string }): void {
  const s = summary.aggregateUsageSummary;
  console.log(`${summary.organization.name}, ${summary.day} (UTC)`);
  console.log(`  footfall ${s.footfall}, connections ${s.connections}, abandoned ${s.abandoned}`);
  console.log(`  new customers ${s.new_customers}, repeat customers ${s.repeat_customers}`);
  console.log(
    `  bandwidth ${s.formattedBandwidth}, dwell time ${Math.round(s.dwell_time / 60)} min (average ${Math.round(s.avg_dwell_time / 60)} min)`,
  );
  for (const v of summary.venueUsageSummary) console.log(`  ${v.venue_name}: ${v.connections} connections, ${v.formattedBandwidth}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { MLANGO_URL, MLANGO_TOKEN, MLANGO_ORG } = process.env;
  if (!MLANGO_URL || !MLANGO_TOKEN || !MLANGO_ORG) {
    console.error("Set MLANGO_URL, MLANGO_TOKEN and MLANGO_ORG.");
    process.exit(2);
  }
  print(await usageSummaryFor({ baseUrl: MLANGO_URL, token: MLANGO_TOKEN, organizationId: MLANGO_ORG }));
}
