// Splash pages (docs/guide/splash-pages.md#splash-page-details, #presentation). The
// spec lists only REST calls for them; the data API reads the same services so scripts can list
// pages, their options and rules, and publish, with the same permissions.
import { getPage, listPages, listTemplates, publishPage } from "../../splash/pages.server";
import { listDisplaySettings } from "../../splash/rules.server";
import { done, mutation, refused } from "../errors.server";
import { pageOf, recordId, type PageArgs } from "../args.server";
import type { OrgContext } from "../../guard.server";
import { iso, type Resolvers } from "./common.server";

export const typeDefs = /* GraphQL */ `
  "An option of a splash page: {{ config.name }} in its HTML."
  type SplashPageConfig {
    id: ID!
    name: String!
    title: String!
    default_value: String!
    "The operator's value, or the initial value."
    current_value: String!
  }

  "A display rule: the page for these access points, between the dates, when the factor holds (decision 0016)."
  type SplashDisplaySetting {
    id: ID!
    splash_page_id: ID!
    access_points: [SplashRuleAccessPoint!]!
    start_date: String
    end_date: String
    "After | On"
    factor: String!
    factor_count: Int!
    "Session | Day"
    factor_type: String!
    "e.g. After 3 Sessions"
    rule: String!
  }

  "An access point a display rule names."
  type SplashRuleAccessPoint {
    id: ID!
    name: String!
  }

  "A splash page in a list (view_splash_pages, create_splash_pages or edit_splash_pages); splashPage(id) has its code, options and rules."
  type SplashPageSummary {
    id: ID!
    name: String!
    description: String
    "tailwind.css, bootstrap4.css or bootstrap3.css"
    css_template: String!
    "null: not set up; 1: builder; 2: code editor"
    type: Int
    published: Boolean!
    has_unpublished_changes: Boolean!
    page_url: String
    published_at: String
    template: Boolean!
    created_at: String!
    updated_at: String!
  }

  "A splash page with its code, options and display rules."
  type SplashPage {
    id: ID!
    name: String!
    description: String
    css_template: String!
    type: Int
    published: Boolean!
    has_unpublished_changes: Boolean!
    page_url: String
    published_at: String
    template: Boolean!
    html: String!
    css: String!
    custom_scripts: String!
    configs: [SplashPageConfig!]!
    display_settings: [SplashDisplaySetting!]!
    created_at: String!
    updated_at: String!
  }

  "A template shipped with Mlango (splash_pages?template=true)."
  type SplashTemplate {
    id: ID!
    name: String!
    description: String!
    css_template: String!
    html: String!
    css: String!
  }

  extend type Query {
    "The organization's splash pages, newest first."
    splashPages(limit: Int = 10, offset: Int = 0, search: String): [SplashPageSummary!]! @complexity(value: 1, multipliers: ["limit"])
    splashPagesCount(search: String): Int!
    splashPage(id: ID!): SplashPage!
    splashTemplates: [SplashTemplate!]!
  }

  extend type Mutation {
    "publish_splash_pages: what guests see becomes the page's current draft."
    publishSplashPage(id: ID!): MutationResult!
  }
`;

type PageParent = Awaited<ReturnType<typeof getPage>> & { ctx: OrgContext };
type SummaryParent = Awaited<ReturnType<typeof listPages>>["rows"][number];

const times = {
  published_at: (p: SummaryParent) => iso(p.published_at),
  created_at: (p: SummaryParent) => iso(p.created_at),
  updated_at: (p: SummaryParent) => iso(p.updated_at),
};

export const resolvers: Resolvers = {
  Query: {
    async splashPages(_, args: PageArgs, context) {
      const ctx = await context.org();
      const { rows } = await listPages(ctx, pageOf(args));
      return rows;
    },
    async splashPagesCount(_, args: PageArgs, context) {
      const ctx = await context.org();
      return (await listPages(ctx, { ...pageOf({ search: args.search }), pageSize: 1 })).total;
    },
    async splashPage(_, args: { id: string }, context) {
      const ctx = await context.org();
      const page = await getPage(ctx, recordId(args.id));
      return { ...page, ctx };
    },
    async splashTemplates(_, _args, context) {
      await context.org();
      return listTemplates();
    },
  },
  Mutation: {
    publishSplashPage: (_, args: { id: string }, context) =>
      mutation(async () => {
        const outcome = await publishPage(await context.org(), recordId(args.id));
        return outcome.ok ? done(outcome.message, args.id) : refused(422, outcome.message, args.id);
      }),
  },
  SplashPageSummary: times,
  SplashPage: {
    ...times,
    configs: (p: PageParent) => p.configs.map((c) => ({ ...c, current_value: c.custom_value ?? c.default_value })),
    display_settings: (p: PageParent) => listDisplaySettings(p.ctx, p.id),
  },
};
