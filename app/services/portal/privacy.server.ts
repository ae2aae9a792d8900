// The privacy notice a guest reads before giving anything (Kenya's Data Protection Act 2019 s.29,
// Data Protection (General) Regulations 2021 reg. 4; issue 35, decision 0080). It is generated from
// the organisation's details and what the network really collects and shares: the fields it asks,
// the SMS provider and M-Pesa when configured, the advertisers whose campaigns run on it, the social
// providers. Its version is a hash of its content: a consent records the version it was given under,
// and a guest whose last acceptance names another version is asked again.
import crypto from "node:crypto";
import { sql } from "kysely";
import { db } from "~/db/db.server";
import { readCache } from "~/db/read-cache.server";
import type { OAuthProviderName } from "~/db/schema";
import { PROVIDER_LABELS } from "~/lib/schemas/social-login";
import { signupFieldRule, type SignupFields } from "~/lib/schemas/portal";
import { NOTICE_WORDS, type NoticeLanguage, type NoticeWords } from "./privacy-words";

/** What the notice is made of, read in one query (noticeFacts). */
export interface NoticeFacts {
  organization: { name: string; address: string | null; email: string | null; phone: string | null };
  network: { name: string; email: string | null; phone: string | null };
  signupFields: SignupFields;
  /** Days after the last visit that personal data is kept. */
  retentionDays: number;
  smsProvider: string | null;
  mpesa: boolean;
  advertisers: string[];
  providers: OAuthProviderName[];
}

export interface NoticeSection {
  heading: string;
  items: string[];
}

export interface PrivacyNotice {
  title: string;
  intro: string;
  sections: NoticeSection[];
  version: string;
}

const SMS_PROVIDER_NAMES: Record<string, string> = { africastalking: "Africa's Talking" };

/** The notice's facts for a network of an organisation (null: no such network there). */
export async function noticeFacts(organizationId: number, venueId: number, now = Date.now()): Promise<NoticeFacts | null> {
  const row = await db
    .selectFrom("venues")
    .innerJoin("organizations", "organizations.id", "venues.organization_id")
    .leftJoin("sms_settings", "sms_settings.organization_id", "venues.organization_id")
    .select([
      "organizations.name as organization_name",
      "organizations.address as organization_address",
      "organizations.email_address as organization_email",
      "organizations.phone_number as organization_phone",
      "organizations.retention_days",
      "venues.name",
      "venues.email",
      "venues.phone_number",
      "venues.signup_phone",
      "venues.signup_email",
      "venues.signup_names",
      "sms_settings.provider as sms_provider",
      sql<number>`(select count(*) from mpesa_settings m where m.organization_id = venues.organization_id)`.as("mpesa"),
    ])
    .where("venues.id", "=", venueId)
    .where("venues.organization_id", "=", organizationId)
    .executeTakeFirst();
  if (!row) return null;
  const [advertisers, providers] = await Promise.all([
    db
      .selectFrom("ad_campaigns")
      .select("client_name")
      .distinct()
      .where("organization_id", "=", organizationId)
      .where("paused", "=", 0)
      .where((eb) => eb.or([eb("expire_at", "is", null), eb("expire_at", ">", now)]))
      .where((eb) =>
        eb.or([
          eb("all_networks", "=", 1),
          eb.exists(
            eb
              .selectFrom("ad_campaign_networks")
              .select("venue_id")
              .whereRef("ad_campaign_networks.campaign_id", "=", "ad_campaigns.id")
              .where("ad_campaign_networks.venue_id", "=", venueId),
          ),
        ]),
      )
      .orderBy("client_name")
      .limit(20)
      .execute(),
    db.selectFrom("oauth_providers").select("provider").where("organization_id", "=", organizationId).orderBy("provider").execute(),
  ]);
  return {
    organization: {
      name: row.organization_name,
      address: row.organization_address,
      email: row.organization_email,
      phone: row.organization_phone,
    },
    network: { name: row.name, email: row.email, phone: row.phone_number },
    signupFields: {
      phone: signupFieldRule(row.signup_phone),
      email: signupFieldRule(row.signup_email),
      names: signupFieldRule(row.signup_names),
    },
    retentionDays: Number(row.retention_days),
    smsProvider: row.sms_provider ? (SMS_PROVIDER_NAMES[row.sms_provider] ?? row.sms_provider) : null,
    mpesa: Number(row.mpesa) > 0,
    advertisers: advertisers.map((a) => a.client_name).filter(Boolean),
    providers: providers.map((p) => p.provider),
  };
}

/** The notice's words, from its facts, in `lang`; its version is that of the English words. */
export function privacyNotice(facts: NoticeFacts, lang: NoticeLanguage = "en"): PrivacyNotice {
  const english = noticeIn(facts, NOTICE_WORDS.en);
  const { intro, sections } = english; // hashed as they were before the notice had other languages
  const version = crypto.createHash("sha256").update(JSON.stringify({ intro, sections })).digest("hex").slice(0, 16);
  return { ...(lang === "en" ? english : noticeIn(facts, NOTICE_WORDS[lang])), version };
}

function noticeIn(facts: NoticeFacts, w: NoticeWords): Omit<PrivacyNotice, "version"> {
  const org = facts.organization;
  const contact = [org.email, org.phone, facts.network.email, facts.network.phone].filter((v): v is string => Boolean(v));
  const fields = facts.signupFields;
  const asked = (rule: string) => (rule === "required" ? "" : w.ifGiven);
  const collected = [
    ...(fields.names !== "off" ? [w.name(asked(fields.names))] : []),
    ...(fields.phone !== "off" ? [w.phone(asked(fields.phone))] : []),
    ...(fields.email !== "off" ? [w.email(asked(fields.email))] : []),
    w.mac,
    w.userAgent,
    w.visits,
    w.dataUsed,
    ...(facts.providers.length ? [w.social(facts.providers.map((p) => PROVIDER_LABELS[p]).join(w.or))] : []),
    ...(facts.mpesa ? [w.mpesaCollected] : []),
  ];
  const recipients = [
    w.processor,
    ...(facts.smsProvider ? [w.smsProvider(facts.smsProvider)] : []),
    ...(facts.mpesa ? [w.mpesaShared] : []),
    ...(facts.advertisers.length ? [w.advertisers(facts.advertisers.join(", "))] : []),
    w.noOneElse,
  ];
  const sections: NoticeSection[] = [
    {
      heading: w.headings.who,
      items: [
        w.controller(org.name, facts.network.name),
        ...(org.address ? [w.address(org.address)] : []),
        contact.length ? w.contact(contact.join(", ")) : w.askStaff,
      ],
    },
    { heading: w.headings.what, items: collected },
    { heading: w.headings.why, items: [...w.purposes, w.marketing(Boolean(facts.smsProvider))] },
    { heading: w.headings.recipients, items: recipients },
    { heading: w.headings.howLong, items: [w.retention(facts.retentionDays)] },
    {
      heading: w.headings.rights,
      items: [...w.rights, ...(contact.length ? [w.contactOrg(org.name, contact.join(", "))] : []), w.complain],
    },
  ];
  return { title: w.title, intro: w.intro(org.name), sections };
}

/**
 * The notices of networks in every language, by organisation and network, kept for 30 seconds
 * (decision 0089): every connect page shows one, and reading its facts took three queries per page.
 * The languages are made together, from the same facts, so they always share one version.
 */
const NOTICE_TTL_MS = 30_000;
const notices = readCache(NOTICE_TTL_MS, async ([organizationId, venueId]: [number, number]) => {
  const facts = await noticeFacts(organizationId, venueId);
  return facts ? { en: privacyNotice(facts, "en"), sw: privacyNotice(facts, "sw") } : null;
});

/** The notice of a guest's network (null when the network is gone); at most 30 seconds old. */
export async function noticeForGuest(
  view: { organizationId: number; network: { id: number } },
  lang: NoticeLanguage = "en",
): Promise<PrivacyNotice | null> {
  return (await notices.get([view.organizationId, view.network.id]))?.[lang] ?? null;
}
