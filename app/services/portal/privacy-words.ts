// The privacy notice's words in each guest language (decision 0080): privacy.server.ts builds the
// notice from the organisation's facts with these. The notice's version is the hash of its English
// words, so a guest who accepted it in Kiswahili has accepted the same version.

export type NoticeLanguage = "en" | "sw";

export interface NoticeWords {
  title: string;
  intro: (organization: string) => string;
  ifGiven: string;
  name: (ifGiven: string) => string;
  phone: (ifGiven: string) => string;
  email: (ifGiven: string) => string;
  mac: string;
  userAgent: string;
  visits: string;
  dataUsed: string;
  social: (providers: string) => string;
  mpesaCollected: string;
  processor: string;
  smsProvider: (provider: string) => string;
  mpesaShared: string;
  advertisers: (names: string) => string;
  noOneElse: string;
  headings: { who: string; what: string; why: string; recipients: string; howLong: string; rights: string };
  controller: (organization: string, network: string) => string;
  address: (address: string) => string;
  contact: (contacts: string) => string;
  askStaff: string;
  purposes: [string, string, string];
  marketing: (stopBySms: boolean) => string;
  retention: (days: number) => string;
  rights: [string, string];
  contactOrg: (organization: string, contacts: string) => string;
  complain: string;
  or: string;
}

const en: NoticeWords = {
  title: "Privacy notice",
  intro: (organization) => `What ${organization} keeps about you when you use this Wi-Fi, and why.`,
  ifGiven: " (if you give it)",
  name: (ifGiven) => `Your name${ifGiven}.`,
  phone: (ifGiven) => `Your phone number${ifGiven}.`,
  email: (ifGiven) => `Your e-mail address${ifGiven}.`,
  mac: "Your device's MAC address (its network identifier).",
  userAgent: "Your device's model, system and browser, as its browser announces them (the user agent).",
  visits: "Your visits: when, at which network and access point, and for how long.",
  dataUsed: "How much data you use.",
  social: (providers) => `If you sign in with ${providers}: your name and e-mail address from that account.`,
  mpesaCollected: "If you buy a plan: the M-Pesa phone number and the payment's receipt.",
  processor: "Mlango, the service that runs this Wi-Fi sign-in for the operator (a data processor).",
  smsProvider: (provider) => `${provider}, which sends text messages (your phone number).`,
  mpesaShared: "Safaricom M-Pesa, if you pay for a plan (your phone number and the amount).",
  advertisers: (names) =>
    `Advertisers whose banners show here (${names}): they get counts of views and clicks, never your name or contacts. A banner you tap opens their site.`,
  noOneElse: "No one else, unless the law requires it.",
  headings: {
    who: "Who is responsible",
    what: "What is collected",
    why: "Why",
    recipients: "Who receives it",
    howLong: "How long it is kept",
    rights: "Your rights",
  },
  controller: (organization, network) => `${organization} (the data controller) runs the Wi-Fi at ${network}.`,
  address: (address) => `Address: ${address}.`,
  contact: (contacts) => `Contact: ${contacts}.`,
  askStaff: "Contact: ask the venue's staff.",
  purposes: [
    "To let you on the Wi-Fi and keep your plan and time limits (needed to provide the service).",
    "To count visits and use of the network for the operator's figures.",
    "To keep the network safe and to answer the law's requests.",
  ],
  marketing: (stopBySms) =>
    `To send you news and offers only if you tick the box for them; you can stop them at any time${stopBySms ? " (reply STOP to a text message)" : ""}.`,
  retention: (days) =>
    `Your personal data is kept for ${days} day${days === 1 ? "" : "s"} after your last visit, then anonymised: your name, contacts and device identifiers are erased, and only anonymous figures remain.`,
  rights: [
    "Under Kenya's Data Protection Act 2019 you may be told how your data is used, see it, have it corrected or deleted, object to its use, and withdraw your consent at any time.",
    "To see your data, stop marketing messages or delete your data, use “See or delete my data” on the sign-in page: a code sent to your phone proves it is yours.",
  ],
  contactOrg: (organization, contacts) => `Or contact ${organization}: ${contacts}.`,
  complain: "You may complain to the Office of the Data Protection Commissioner (www.odpc.go.ke).",
  or: " or ",
};

const sw: NoticeWords = {
  title: "Ilani ya faragha",
  intro: (organization) => `Kile ambacho ${organization} huhifadhi kukuhusu unapotumia Wi-Fi hii, na kwa nini.`,
  ifGiven: " (ukiitoa)",
  name: (ifGiven) => `Jina lako${ifGiven}.`,
  phone: (ifGiven) => `Nambari yako ya simu${ifGiven}.`,
  email: (ifGiven) => `Barua pepe yako${ifGiven}.`,
  mac: "Anwani ya MAC ya kifaa chako (kitambulisho chake cha mtandao).",
  userAgent: "Muundo, mfumo na kivinjari cha kifaa chako, kama kivinjari chake kinavyovitangaza (user agent).",
  visits: "Ziara zako: lini, kwenye mtandao upi na kituo kipi cha Wi-Fi, na kwa muda gani.",
  dataUsed: "Kiasi cha data unachotumia.",
  social: (providers) => `Ukiingia kwa ${providers}: jina lako na barua pepe kutoka akaunti hiyo.`,
  mpesaCollected: "Ukinunua kifurushi: nambari ya simu ya M-Pesa na risiti ya malipo.",
  processor: "Mlango, huduma inayoendesha kuingia kwenye Wi-Fi hii kwa niaba ya mhudumu (mchakataji wa data).",
  smsProvider: (provider) => `${provider}, anayetuma ujumbe mfupi (nambari yako ya simu).`,
  mpesaShared: "Safaricom M-Pesa, ukilipia kifurushi (nambari yako ya simu na kiasi).",
  advertisers: (names) =>
    `Watangazaji ambao matangazo yao huonekana hapa (${names}): hupata idadi ya mara yalivyoonwa na kubofywa, kamwe si jina lako wala mawasiliano yako. Tangazo unalogusa hufungua tovuti yao.`,
  noOneElse: "Hakuna mwingine, isipokuwa sheria ikidai.",
  headings: {
    who: "Anayewajibika",
    what: "Kinachokusanywa",
    why: "Kwa nini",
    recipients: "Anayepokea",
    howLong: "Kinahifadhiwa kwa muda gani",
    rights: "Haki zako",
  },
  controller: (organization, network) => `${organization} (mdhibiti wa data) huendesha Wi-Fi ya ${network}.`,
  address: (address) => `Anwani: ${address}.`,
  contact: (contacts) => `Mawasiliano: ${contacts}.`,
  askStaff: "Mawasiliano: waulize wahudumu wa eneo hili.",
  purposes: [
    "Kukuruhusu kutumia Wi-Fi na kuzingatia kifurushi chako na vikomo vya muda (inahitajika kutoa huduma).",
    "Kuhesabu ziara na matumizi ya mtandao kwa takwimu za mhudumu.",
    "Kulinda usalama wa mtandao na kujibu maombi ya kisheria.",
  ],
  marketing: (stopBySms) =>
    `Kukutumia habari na matoleo ukiweka alama kwenye kisanduku chake tu; unaweza kuyasimamisha wakati wowote${stopBySms ? " (jibu STOP kwa ujumbe mfupi)" : ""}.`,
  retention: (days) =>
    `Data yako binafsi huhifadhiwa kwa ${days === 1 ? "siku 1" : `siku ${days}`} baada ya ziara yako ya mwisho, kisha hufanywa isijulikane: jina lako, mawasiliano na vitambulisho vya kifaa hufutwa, na takwimu zisizokutambulisha tu hubaki.`,
  rights: [
    "Chini ya Sheria ya Ulinzi wa Data ya Kenya ya 2019 una haki ya kuambiwa jinsi data yako inavyotumika, kuiona, kuirekebisha au kuifuta, kupinga matumizi yake, na kuondoa ridhaa yako wakati wowote.",
    "Kuona data yako, kusimamisha ujumbe wa matangazo au kufuta data yako, tumia “Ona au futa data yangu” kwenye ukurasa wa kuingia: nambari ya siri inayotumwa kwa simu yako inathibitisha ni yako.",
  ],
  contactOrg: (organization, contacts) => `Au wasiliana na ${organization}: ${contacts}.`,
  complain: "Unaweza kuwasilisha malalamiko kwa Ofisi ya Kamishna wa Ulinzi wa Data (www.odpc.go.ke).",
  or: " au ",
};

export const NOTICE_WORDS: Record<NoticeLanguage, NoticeWords> = { en, sw };
