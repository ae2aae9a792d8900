// The words of the privacy notice link, the data-access pages and the captive-browser note, passed
// to the components as `text` (CONNECT_TEXT's pattern: another language's catalogue has this shape).
// The notice's own sentences are built from the organisation's facts in portal/privacy.server.ts.
export const PRIVACY_TEXT = {
  noticeChanged: "The privacy notice has changed since you last connected. Read it, then connect to accept it.",
  readNotice: "Read the privacy notice",
  myData: "See or delete my data",
  termsRequired: "The privacy notice has changed. Read it, then connect again to accept it.",
  captiveNote: (providers: string) =>
    `${providers} sign-in does not work in this Wi-Fi sign-in window. Sign up with your phone number here, or open your phone's browser (Chrome or Safari) and visit any website to get this page there.`,
  backToConnect: "Back to connecting",
  operatorPolicy: "The operator's own policy",
  version: (version: string) => `Version ${version}`,
  // The data-access pages (GET/POST /connect/my-data).
  dataTitle: "Your data",
  dataIntro: (organization: string) =>
    `See what ${organization} keeps about you, stop marketing messages, or ask for your data to be deleted. First prove the phone number is yours: we send a code to it by SMS.`,
  phone: "Phone number",
  sendCode: "Send me a code",
  codeSent: (phone: string) => `We sent a code to ${phone}. Enter it below; it is valid for 10 minutes.`,
  code: "Code from the SMS",
  showData: "Show my data",
  noRecord: "We hold no personal data for this phone number.",
  name: "Name",
  email: "E-mail address",
  devices: "Devices",
  visits: "Visits",
  lastVisit: "Last visit",
  dataUsed: "Data used",
  marketing: "News and offers",
  marketingOn: "You receive news and offers.",
  marketingOff: "You do not receive news and offers.",
  stopMarketing: "Stop news and offers",
  marketingStopped: "Done: you will not receive news and offers any more.",
  deleteData: "Delete my data",
  deleteWarning: "Deleting erases your name, contacts and devices from this operator's records. This cannot be undone.",
  deleteRequested: "Your data will be deleted within a few minutes. Anonymous figures (a visit happened) remain.",
  notice: "Privacy notice",
  codeWrong: "That code is not right or has expired. Ask for a new one.",
  proofExpired: "This page has expired. Prove your phone number again.",
  none: "None",
} as const;

/** The same words in any language: every key, its own strings. */
export type PrivacyText = { [K in keyof typeof PRIVACY_TEXT]: (typeof PRIVACY_TEXT)[K] extends string ? string : (typeof PRIVACY_TEXT)[K] };
