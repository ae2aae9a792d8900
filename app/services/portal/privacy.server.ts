// The privacy notice a guest reads before giving anything (Kenya's Data Protection Act 2019 s.29,
// Data Protection (General) Regulations 2021 reg. 4; issue 35, decision 0080). It is generated from
// the organisation's details and what the network really collects and shares: the fields it asks,
// the SMS provider and M-Pesa when configured, the advertisers whose campaigns run on it, the social
// providers. Its version is a hash of its content: a consent records the version it was given under,
// and a guest whose last acceptance names another version is asked again.
import crypto from "node:crypto";
import { sql } from "kysely";
import { db } from "~/db/db.server";
import type { OAuthProviderName } from "~/db/schema";
import { PROVIDER_LABELS } from "~/lib/schemas/social-login";
import { signupFieldRule, type SignupFields } from "~/lib/schemas/portal";

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

const asked = (rule: string) => (rule === "required" ? "" : " (if you give it)");

/** The notice's words, from its facts. */
export function privacyNotice(facts: NoticeFacts): PrivacyNotice {
  const org = facts.organization;
  const contact = [org.email, org.phone, facts.network.email, facts.network.phone].filter((v): v is string => Boolean(v));
  const fields = facts.signupFields;
  const collected = [
    ...(fields.names !== "off" ? [`Your name${asked(fields.names)}.`] : []),
    ...(fields.phone !== "off" ? [`Your phone number${asked(fields.phone)}.`] : []),
    ...(fields.email !== "off" ? [`Your e-mail address${asked(fields.email)}.`] : []),
    "Your device's MAC address (its network identifier).",
    "Your device's model, system and browser, as its browser announces them (the user agent).",
    "Your visits: when, at which network and access point, and for how long.",
    "How much data you use.",
    ...(facts.providers.length
      ? [
          `If you sign in with ${facts.providers.map((p) => PROVIDER_LABELS[p]).join(" or ")}: your name and e-mail address from that account.`,
        ]
      : []),
    ...(facts.mpesa ? ["If you buy a plan: the M-Pesa phone number and the payment's receipt."] : []),
  ];
  const recipients = [
    "Mlango, the service that runs this Wi-Fi sign-in for the operator (a data processor).",
    ...(facts.smsProvider ? [`${facts.smsProvider}, which sends text messages (your phone number).`] : []),
    ...(facts.mpesa ? ["Safaricom M-Pesa, if you pay for a plan (your phone number and the amount)."] : []),
    ...(facts.advertisers.length
      ? [
          `Advertisers whose banners show here (${facts.advertisers.join(", ")}): they get counts of views and clicks, never your name or contacts. A banner you tap opens their site.`,
        ]
      : []),
    "No one else, unless the law requires it.",
  ];
  const days = facts.retentionDays;
  const sections: NoticeSection[] = [
    {
      heading: "Who is responsible",
      items: [
        `${org.name} (the data controller) runs the Wi-Fi at ${facts.network.name}.`,
        ...(org.address ? [`Address: ${org.address}.`] : []),
        contact.length ? `Contact: ${contact.join(", ")}.` : "Contact: ask the venue's staff.",
      ],
    },
    { heading: "What is collected", items: collected },
    {
      heading: "Why",
      items: [
        "To let you on the Wi-Fi and keep your plan and time limits (needed to provide the service).",
        "To count visits and use of the network for the operator's figures.",
        "To keep the network safe and to answer the law's requests.",
        `To send you news and offers only if you tick the box for them; you can stop them at any time${facts.smsProvider ? " (reply STOP to a text message)" : ""}.`,
      ],
    },
    { heading: "Who receives it", items: recipients },
    {
      heading: "How long it is kept",
      items: [
        `Your personal data is kept for ${days} day${days === 1 ? "" : "s"} after your last visit, then anonymised: your name, contacts and device identifiers are erased, and only anonymous figures remain.`,
      ],
    },
    {
      heading: "Your rights",
      items: [
        "Under Kenya's Data Protection Act 2019 you may be told how your data is used, see it, have it corrected or deleted, object to its use, and withdraw your consent at any time.",
        "To see your data, stop marketing messages or delete your data, use “See or delete my data” on the sign-in page: a code sent to your phone proves it is yours.",
        ...(contact.length ? [`Or contact ${org.name}: ${contact.join(", ")}.`] : []),
        "You may complain to the Office of the Data Protection Commissioner (www.odpc.go.ke).",
      ],
    },
  ];
  const intro = `What ${org.name} keeps about you when you use this Wi-Fi, and why.`;
  const version = crypto.createHash("sha256").update(JSON.stringify({ intro, sections })).digest("hex").slice(0, 16);
  return { title: "Privacy notice", intro, sections, version };
}

/** The notice of a guest's network (null when the network is gone). */
export async function noticeForGuest(view: { organizationId: number; network: { id: number } }): Promise<PrivacyNotice | null> {
  const facts = await noticeFacts(view.organizationId, view.network.id);
  return facts ? privacyNotice(facts) : null;
}
