// Kiswahili for every guest page, key for key with en.ts (tsc fails on a missing key). Kenyan usage:
// "Unganisha" for Connect, "Lipa kwa M-Pesa", "Umeunganishwa" for online; "Wi-Fi" and "M-Pesa" stay
// as guests know them.
import type { OAuthProviderName } from "~/db/schema";
import { PROVIDER_LABELS } from "~/lib/schemas/social-login";
import { MAX_TEXT_ANSWER, RATING_MAX, RATING_MIN } from "~/lib/schemas/surveys";
import type { Catalogue } from "./en";

export const sw: Catalogue = {
  lang: "sw",
  name: "Kiswahili",
  switchLabel: "Lugha",

  connect: {
    title: "Unganishwa na Wi-Fi",
    firstName: "Jina la kwanza",
    middleName: "Jina la kati (si lazima)",
    lastName: "Jina la mwisho",
    email: "Barua pepe",
    phone: "Nambari ya simu",
    marketingOptIn: (organization: string) =>
      `Nitumie habari na matoleo kutoka ${organization} kwa SMS na barua pepe (si lazima; unaweza kuzisimamisha wakati wowote).`,
    connect: "Unganisha",
    accept: (organization: string) => ["Kwa kuunganisha unakubali ", " na ", ` ya ${organization}.`],
    termsOfUse: "masharti ya matumizi",
    privacyNotice: "ilani ya faragha",
    or: "au",
    heldPlan: ["Una ", " kwenye kifaa hiki hadi ", "."],
    continueWithPlan: "Endelea na kifurushi changu",
    voucherCode: "Nambari ya vocha",
    useVoucher: "Tumia vocha",
    continueWith: (provider: OAuthProviderName) => `Endelea na ${PROVIDER_LABELS[provider]}`,
    buyWithMpesa: "Nunua kifurushi kwa M-Pesa",
    currency: "KSh",
    mpesaPhone: "Nambari ya simu ya M-Pesa",
    payWithMpesa: "Lipa kwa M-Pesa",
    mpesaPrompt: "Utapata ujumbe kwenye simu hii wa kuweka PIN yako ya M-Pesa.",
    receiptTitle: "Umeshalipa?",
    receiptHint:
      "Kama ulilipa kwa Paybill au Till ya mtandao huu kupitia menyu ya M-Pesa, au ombi la PIN halikufika, andika nambari ya muamala ya M-Pesa iliyo kwenye SMS ya uthibitisho.",
    receiptCode: "Nambari ya muamala ya M-Pesa",
    useReceipt: "Angalia malipo yangu",
    sponsored: "Tangazo",
    advertisement: "Tangazo",
    preview: "Onyesho: wageni huunganishwa na Wi-Fi kwa fomu hii.",
  },

  plans: {
    minutes: (n: number) => `dakika ${n}`,
    hours: (n: number) => (n === 1 ? "saa 1" : `saa ${n}`),
    days: (n: number) => (n === 1 ? "siku 1" : `siku ${n}`),
    upTo: (size: string) => `hadi ${size}`,
    unlimited: "bila kikomo",
    within: (time: string) => `kutumia ndani ya ${time}`,
    every: { day: "mara moja kwa siku", week: "mara moja kwa wiki", validity: "tena kikiisha" },
    free: (parts: string) => `Wi-Fi ya bure: ${parts}.`,
    months: ["Jan", "Feb", "Mac", "Apr", "Mei", "Jun", "Jul", "Ago", "Sep", "Okt", "Nov", "Des"],
  },

  online: {
    title: "Umeunganishwa",
    body: "Sasa unaweza kutumia intaneti.",
    until: (time: string) => `Kipindi chako kinadumu hadi ${time}.`,
    already: "Kifaa hiki tayari kimeunganishwa kwa muunganisho huu.",
  },

  waiting: {
    title: "Angalia simu yako",
    enterPin: (phone: string, amount: number, plan: string) => `Weka PIN yako ya M-Pesa kwenye ${phone} kulipa KSh ${amount} kwa ${plan}.`,
    checks: "Ukurasa huu hujiangalia wenyewe kila baada ya sekunde chache; utaunganishwa mara tu malipo yatakapofika.",
    checkNow: "Nimelipa — angalia sasa",
    back: "Rudi kwenye ukurasa wa Wi-Fi",
  },

  failed: { title: "Malipo hayakukamilika", retry: "Jaribu tena" },

  receiptWaiting: {
    title: "Tunaangalia malipo yako",
    body: (code: string) => `Tunauliza M-Pesa kuhusu ${code}. Ukurasa huu hujiangalia wenyewe kila baada ya sekunde chache.`,
    checkNow: "Angalia sasa",
    back: "Rudi kwenye ukurasa wa Wi-Fi",
  },

  changeOfMind: {
    otherNumber: "Tumia nambari nyingine",
    cancel: "Sitisha malipo haya",
    changeTitle: "Lipa kwa nambari nyingine",
    changeIntro: (planName: string, amount: number) =>
      `Andika nambari ya Safaricom ya kutuma ombi la M-Pesa la ${planName} (KSh ${amount}).`,
    phoneLabel: "Nambari ya simu ya M-Pesa",
    pay: (amount: number) => `Lipa KSh ${amount}`,
    back: "Rudi kwenye ukurasa wa Wi-Fi",
  },

  proof: {
    planTitle: "Nambari hii tayari ina kifurushi",
    planSent: (phone: string) => `Nambari hii tayari ina kifurushi: tumetuma nambari ya siri kwa ${phone}.`,
    planAsk: "Andika nambari ya siri ili kutumia kifurushi kwenye kifaa hiki pia.",
    payInstead: "Lipia kifurushi kipya badala yake",
    welcomeTitle: "Karibu tena",
    welcomeSent: (phone: string) => `Karibu tena — andika nambari ya siri iliyotumwa kwa ${phone}.`,
    welcomeAsk: "Nambari ya siri inaunganisha kifaa hiki na taarifa zako, kifurushi chako na historia yako.",
    skip: "Endelea bila nambari ya siri",
    codeLabel: "Nambari ya siri kutoka kwa ujumbe mfupi",
    confirm: "Endelea",
    back: "Rudi kwenye ukurasa wa Wi-Fi",
  },

  limits: { title: "Majaribio mengi mno", back: "Rudi kwenye ukurasa wa Wi-Fi" },

  privacy: {
    noticeChanged: "Ilani ya faragha imebadilika tangu ulipounganishwa mara ya mwisho. Isome, kisha uunganishe ili kuikubali.",
    readNotice: "Soma ilani ya faragha",
    myData: "Ona au futa data yangu",
    termsRequired: "Ilani ya faragha imebadilika. Isome, kisha uunganishe tena ili kuikubali.",
    captiveNote: (providers: string) =>
      `Kuingia kwa ${providers} hakufanyi kazi kwenye dirisha hili la kuingia la Wi-Fi. Jisajili hapa kwa nambari yako ya simu, au fungua kivinjari cha simu yako (Chrome au Safari) na utembelee tovuti yoyote ili kupata ukurasa huu huko.`,
    backToConnect: "Rudi kwenye kuunganisha",
    operatorPolicy: "Sera ya mhudumu mwenyewe",
    version: (version: string) => `Toleo ${version}`,
    dataTitle: "Data yako",
    dataIntro: (organization: string) =>
      `Ona kile ambacho ${organization} huhifadhi kukuhusu, simamisha ujumbe wa matangazo, au omba data yako ifutwe. Kwanza thibitisha kuwa nambari ya simu ni yako: tunaitumia nambari ya siri kwa SMS.`,
    phone: "Nambari ya simu",
    sendCode: "Nitumie nambari ya siri",
    codeSent: (phone: string) => `Tumetuma nambari ya siri kwa ${phone}. Iandike hapa chini; inatumika kwa dakika 10.`,
    code: "Nambari ya siri kutoka kwenye SMS",
    showData: "Onyesha data yangu",
    noRecord: "Hatuhifadhi data yoyote binafsi ya nambari hii ya simu.",
    name: "Jina",
    email: "Barua pepe",
    devices: "Vifaa",
    visits: "Ziara",
    lastVisit: "Ziara ya mwisho",
    dataUsed: "Data iliyotumika",
    marketing: "Habari na matoleo",
    marketingOn: "Unapokea habari na matoleo.",
    marketingOff: "Hupokei habari na matoleo.",
    stopMarketing: "Simamisha habari na matoleo",
    marketingStopped: "Imekamilika: hutapokea tena habari na matoleo.",
    deleteData: "Futa data yangu",
    deleteWarning:
      "Kufuta kunaondoa jina lako, mawasiliano yako na vifaa vyako kwenye kumbukumbu za mhudumu huyu. Hili haliwezi kutenduliwa.",
    deleteRequested: "Data yako itafutwa ndani ya dakika chache. Takwimu zisizokutambulisha (kwamba ziara ilifanyika) hubaki.",
    notice: "Ilani ya faragha",
    codeWrong: "Nambari hiyo ya siri si sahihi au muda wake umeisha. Omba nyingine.",
    proofExpired: "Muda wa ukurasa huu umeisha. Thibitisha nambari yako ya simu tena.",
    none: "Hakuna",
  },

  pages: {
    couldNotConnect: "Hatukuweza kukuunganisha",
    notFound: "Haipatikani",
    noSuchPage: "Ukurasa huu haupo.",
    badRequest: "Ombi si sahihi",
    tooLong: "Ombi ni refu mno",
    tryAgainTitle: "Tafadhali jaribu tena",
    paymentNotFound: "Malipo hayapatikani",
    paymentLinkInvalid: "Kiungo hiki cha malipo si sahihi. Unganisha tena na Wi-Fi ili uanze upya.",
    paymentReceived: "Malipo yamepokelewa",
    paymentArrived: (message: string) => `Asante: malipo yako yamefika. ${message}`,
    survey: "Utafiti",
    notAuthorized: "Muunganisho huu haujaidhinishwa (tena).",
    networkUnknown: "Mtandao huu wa Wi-Fi haujawekwa kwenye Mlango.",
  },

  social: {
    notOffered: "Njia hii ya kuingia haipatikani kwenye mtandao huu. Tumia njia nyingine kuunganishwa.",
    badState: "Kiungo hiki cha kuingia si sahihi au muda wake umeisha.",
    failed: (provider: OAuthProviderName) =>
      `Kuingia kwa ${PROVIDER_LABELS[provider]} hakukufanikiwa. Jaribu tena au tumia njia nyingine kuunganishwa.`,
    cancelled: (provider: OAuthProviderName) =>
      `Kuingia kwa ${PROVIDER_LABELS[provider]} kumesitishwa. Jaribu tena au tumia njia nyingine kuunganishwa.`,
  },

  survey: {
    intro: "Utafiti mfupi, ukiwa na muda. Umeunganishwa hata usipoujibu.",
    choose: "Chagua…",
    scale: (min: number, max: number) => `(${min} = mbaya, ${max} = bora kabisa)`,
    send: "Tuma majibu",
    skip: "Ruka utafiti",
  },

  unsubscribe: {
    question: (organization: string) => `Usimamishe ujumbe kutoka ${organization}?`,
    done: (organization: string) => `Hutapokea ujumbe zaidi kutoka ${organization}.`,
    already: (organization: string) => `Tayari hupokei ujumbe kutoka ${organization}.`,
    unknown: "Kiungo hiki cha kujiondoa si sahihi. Tumia kiungo kilicho kwenye ujumbe wa hivi karibuni ulioupokea.",
    explain: (organization: string) => `Hutapokea tena matoleo kwa barua pepe au SMS kutoka ${organization}.`,
    button: "Jiondoe",
    title: "Umejiondoa",
  },

  outcomes: {
    connect: {
      alreadyAuthorized: "Muunganisho huu tayari umeidhinishwa",
      reconnect: "Unganisha tena na Wi-Fi ili kupata kipindi kipya cha muunganisho",
      unknown: "Kiungo hiki cha muunganisho si sahihi.",
      expired: "Muda wa kiungo hiki cha muunganisho umeisha.",
      blocked: "Kifaa hiki kimezuiwa kwenye mtandao huu. Waombe wahudumu wa eneo hili msaada.",
      gatewayFailed: "Mtandao haukuweza kukuruhusu kupita sasa hivi. Tafadhali jaribu tena baada ya muda mfupi.",
    },
    entry: {
      unknownMake: "Aina hii ya lango haitumiki. Zinazotumika: meraki, opennds, unifi, mlango, mikrotik, cisco, ruckus.",
      unknownNetwork: "Mtandao huu wa Wi-Fi haujawekwa kwenye Mlango. Waombe wahudumu wa eneo hili msaada.",
      replayed: "Kiungo hiki cha kuingia tayari kimetumika: fungua ukurasa wowote wa wavuti ili ujaribu tena.",
      unifiNoAp:
        "Kidhibiti cha Wi-Fi hakikusema uko kwenye kituo kipi cha Wi-Fi, kwa hivyo Mlango haiwezi kujua huu ni mtandao upi. Waombe wahudumu wa eneo hili msaada.",
      unifiBadAp: "Kidhibiti cha Wi-Fi kilituma anwani ya kituo cha Wi-Fi isiyo anwani ya MAC. Waombe wahudumu wa eneo hili msaada.",
      unifiUnknownAp: (apMac: string) =>
        `Kituo hiki cha Wi-Fi (${apMac}) hakijasajiliwa kwenye Mlango, kwa hivyo Mlango haiwezi kujua huu ni mtandao upi. Waombe wahudumu wa eneo hili wakiongeze kwenye mtandao wao.`,
      unifiAmbiguousAp: (apMac: string) =>
        `Kituo hiki cha Wi-Fi (${apMac}) kimesajiliwa na shirika zaidi ya moja kwenye Mlango, kwa hivyo Mlango haiwezi kujua huu ni mtandao upi. Waombe wahudumu wa eneo hili wakiondoe kwenye mtandao usiokuwa wake, au watumie anwani ya lango ya mtandao wenyewe.`,
    },
    mlango: {
      oldFirmware: "Lango hili linatumia toleo la zamani la itifaki ya Mlango: sasisha programu yake (README, “Mlango gateways”).",
      badSignature: "Sahihi ya lango hailingani na mtandao huu.",
      expired: "Muda wa ombi la lango umeisha: fungua ukurasa wowote wa wavuti ili ujaribu tena.",
    },
    signup: {
      emailRequired: "Barua pepe inahitajika.",
      phoneRequired: "Nambari ya simu inahitajika.",
      firstNameRequired: "Jina la kwanza linahitajika.",
      lastNameRequired: "Jina la mwisho linahitajika.",
      emailInvalid: "Weka barua pepe sahihi, kama amina@example.com.",
      phoneInvalid: "Weka nambari ya simu sahihi, kama 0712 345 678.",
      tooLong: "Thamani hii ni ndefu mno.",
    },
    free: {
      day: "Kifaa hiki kimeshapata Wi-Fi ya bure ya leo. Ni bure tena kesho.",
      week: "Kifaa hiki kimeshapata Wi-Fi ya bure ya wiki hii. Ni bure tena siku 7 baada ya kuchukuliwa mara ya mwisho.",
      validity: "Wi-Fi ya bure ya kifaa hiki bado inaendelea. Unganisha tena na Wi-Fi ili uendelee nayo.",
    },
    held: {
      none: "Hakuna kifurushi kinachoendelea kwenye kifaa hiki. Chagua kifurushi au tumia vocha.",
      timeUsed: "Muda wa kifurushi chako umekwisha. Chagua kifurushi au tumia vocha.",
    },
    voucher: {
      unknownCode: "Hatuitambui nambari hii ya vocha. Iangalie kisha ujaribu tena.",
      used: "Vocha hii tayari imetumika.",
      noPlan: "Vocha hii haitoi tena intaneti: waombe wahudumu msaada.",
    },
    mpesa: {
      plan: "Chagua kifurushi.",
      notSold: "Kifurushi hiki hakiuzwi tena hapa. Chagua kingine.",
      phone: "Weka nambari ya Safaricom kama 0712 345 678.",
      notSetUp: "Malipo ya M-Pesa hayapatikani kwenye mtandao huu.",
      unavailable: "M-Pesa haikuweza kuanzisha malipo sasa hivi. Tafadhali jaribu tena baada ya muda mfupi, au tumia vocha.",
      timeout:
        "Bado hatujapata jibu kutoka M-Pesa, kwa hivyo ukurasa huu umeacha kusubiri. Tunaendelea kuuliza M-Pesa: malipo yakikamilika, kifurushi chako kitaanza na utakitumia utakapounganisha tena na Wi-Fi. Kama hukutozwa, jaribu tena.",
      neverConfirmed:
        "M-Pesa haikuthibitisha malipo haya kamwe. Kama ulitozwa, mhudumu wa mtandao amearifiwa na atalishughulikia pamoja nawe.",
      mismatch:
        "Jibu la M-Pesa halikulingana na ununuzi huu, kwa hivyo hakuna kifurushi kilichoanzishwa. Mhudumu wa mtandao amearifiwa na atalishughulikia pamoja nawe.",
      unknown: "Kiungo hiki cha malipo si sahihi.",
      cancelled:
        "Umesitisha malipo haya. Kama M-Pesa bado itayapokea (PIN ikiwekwa kwenye ombi lililokwisha tumwa), kifurushi ni chako: unganisha tena na Wi-Fi ili ukitumie.",
    },
    receipt: {
      format: "Andika nambari ya M-Pesa iliyo kwenye SMS ya uthibitisho: herufi na tarakimu 10, kama QWE1RTY2UI.",
      used: "Nambari hii ya M-Pesa tayari imetumika.",
      checking: "Nambari hii ya M-Pesa inaangaliwa kwa ajili ya kifaa kingine. Kama ni yako, jaribu tena baada ya dakika moja.",
      unknown: "M-Pesa haithibitishi nambari hii kama malipo kwa mtandao huu. Iangalie kwenye SMS yako kisha ujaribu tena.",
      noPlan:
        "Malipo yako yamefika, lakini hakuna kifurushi hapa chenye bei hiyo. Mhudumu wa mtandao amearifiwa na atalishughulikia pamoja nawe.",
      unavailable: "Hatukuweza kuangalia nambari hii na M-Pesa sasa hivi. Tafadhali jaribu tena baada ya muda mfupi.",
      notSetUp: "Malipo ya M-Pesa hayapatikani kwenye mtandao huu.",
      link: "Kiungo hiki cha malipo si sahihi.",
    },
    stk: {
      0: "Malipo yamepokelewa. Asante!",
      1: "Salio lako la M-Pesa halitoshi kwa kifurushi hiki. Ongeza salio kisha ujaribu tena.",
      17: "M-Pesa hairuhusu kulipa kiasi kilekile mara mbili ndani ya dakika 2. Subiri kidogo kisha ujaribu tena.",
      1019: "Ombi la malipo liliisha muda kabla ya kukamilika. Jaribu tena.",
      1032: "Umesitisha malipo kwenye simu yako. Hakuna kilicholipwa.",
      1037: "Hatukuweza kufikia simu yako. Hakikisha imewashwa na ina mtandao, kisha ujaribu tena.",
      2001: "PIN ya M-Pesa haikuwa sahihi. Hakuna kilicholipwa; jaribu tena.",
      fallback: "Malipo hayakufanikiwa. Jaribu tena, au lipa kwa njia nyingine.",
    },
    survey: {
      unknownLink: "Kiungo hiki cha muunganisho si sahihi.",
      expiredLink: "Muda wa kiungo hiki cha utafiti umeisha. Asante hata hivyo!",
      notOffered: "Utafiti huu hautolewi kwenye mtandao huu.",
      notOpen: "Utafiti huu haujafunguliwa tena. Asante hata hivyo!",
      alreadyAnswered: "Tayari umejibu utafiti huu. Asante!",
      thanks: "Asante kwa majibu yako!",
      skipped: "Hakuna shida — furahia intaneti.",
      answerOne: "Jibu angalau swali moja, au ruka utafiti.",
      chooseOption: "Chagua mojawapo ya majibu yaliyotolewa.",
      rating: `Chagua alama kuanzia ${RATING_MIN} hadi ${RATING_MAX}.`,
      tooLong: `Jibu lisizidi herufi ${MAX_TEXT_ANSWER}.`,
    },
    radius: {
      invalid: "Kuingia huku si sahihi. Unganisha tena na Wi-Fi ili kupata kipindi kipya cha muunganisho.",
      ended: "Kipindi hiki kimeisha. Unganisha tena na Wi-Fi ili kupata kipindi kipya cha muunganisho.",
      timeUp: "Muda wako wa intaneti umeisha. Unganisha tena na Wi-Fi ili kuendelea.",
      voucherUsed: "Vocha yako imekwisha. Tumia vocha nyingine au chagua kifurushi.",
      dataUsed: "Data ya kifurushi chako imekwisha. Chagua kifurushi au tumia vocha.",
      planExpired: "Muda wa kifurushi chako umeisha. Chagua kifurushi au tumia vocha.",
      planCancelled: "Kifurushi chako hakitumiki tena. Chagua kifurushi au tumia vocha.",
    },
    limits: {
      title: "Majaribio mengi mno",
      "stk:phone": "Maombi mengi mno ya M-Pesa yametumwa kwa nambari hii sasa hivi.",
      "stk:connection": "Malipo mengi mno ya M-Pesa yameanzishwa kutoka kifaa hiki sasa hivi.",
      "voucher:connection": "Nambari nyingi mno za vocha zimejaribiwa kwenye kifaa hiki.",
      "voucher:device": "Nambari nyingi mno za vocha zimejaribiwa kwenye kifaa hiki.",
      "code:phone": "Nambari nyingi mno za siri zimetumwa kwa nambari hii sasa hivi.",
      "code:device": "Nambari nyingi mno za siri zimeombwa kutoka kifaa hiki sasa hivi.",
      "code:check": "Nambari nyingi mno za siri zimejaribiwa kwenye kifaa hiki.",
      "receipt:connection": "Nambari nyingi mno za M-Pesa zimejaribiwa kwenye kifaa hiki.",
      "receipt:device": "Nambari nyingi mno za M-Pesa zimejaribiwa kwenye kifaa hiki.",
      any: "Majaribio mengi mno.",
    },
    notice: { termsRequired: "Ilani ya faragha imebadilika. Isome, kisha uunganishe tena ili kuikubali." },
    proof: {
      noSms: "Mtandao huu bado hauwezi kutuma ujumbe mfupi. Waombe wahudumu wa eneo hili wakuonyeshe au wafute data yako.",
      failed: "Nambari ya siri haikuweza kutumwa sasa hivi. Tafadhali jaribu tena baada ya muda mfupi.",
      wrong: "Nambari hiyo ya siri si sahihi, au muda wake umeisha. Angalia ujumbe mfupi kisha ujaribu tena.",
    },
    tryAgain: "Hitilafu imetokea upande wetu. Tafadhali jaribu tena baada ya muda mfupi.",
  },

  patterns: {
    planFull: (n: number) =>
      `Kifurushi chako tayari kinatumika kwenye ${n === 1 ? "kifaa 1" : `vifaa ${n}`}, idadi kamili kinachoruhusu kwa wakati mmoja. Tenganisha kimojawapo, kisha ujaribu tena.`,
    voucherExpired: (date: string) => `Muda wa vocha hii uliisha tarehe ${date}.`,
    tryAgainIn: (minutes: number) => `Tafadhali jaribu tena baada ya ${minutes === 1 ? "dakika 1" : `dakika ${minutes}`}.`,
  },
};
