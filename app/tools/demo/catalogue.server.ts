// What a Kenyan guest Wi-Fi operator's data looks like: places, people, devices and the
// rhythm of a day and a week. Names of places are invented; makes are the spec's.

import { weighted, type Random } from "./random.server";

export type VenueKind = "cafe" | "mall" | "hotel" | "resort" | "coworking";

export interface VenueProfile {
  kind: VenueKind;
  name: string;
  address: string;
  lat: number;
  lng: number;
  phone: string;
  email: string;
  ssids: readonly string[];
  /** Relative footfall; a mall sees more guests than a café. */
  traffic: number;
  /** Relative number of access points. */
  size: number;
  areas: readonly string[];
}

// The first five are the default demo; more venues cycle through the list with a branch number.
export const VENUES: readonly VenueProfile[] = [
  {
    kind: "cafe",
    name: "Kahawa Corner Café",
    address: "Kimathi Street, Nairobi CBD, Nairobi",
    lat: -1.28412,
    lng: 36.82297,
    phone: "+254202211340",
    email: "hello@kahawacorner.co.ke",
    ssids: ["Kahawa Corner Free WiFi"],
    traffic: 1,
    size: 3,
    areas: ["Counter", "Terrace", "Upstairs lounge"],
  },
  {
    kind: "mall",
    name: "Mlimani Mall",
    address: "Waiyaki Way, Westlands, Nairobi",
    lat: -1.26355,
    lng: 36.80302,
    phone: "+254204449000",
    email: "info@mlimanimall.co.ke",
    ssids: ["Mlimani Mall Free WiFi", "Mlimani Food Court"],
    traffic: 3.2,
    size: 10,
    areas: [
      "Main entrance",
      "Food court",
      "Atrium",
      "Cinema lobby",
      "Parking level 1",
      "First floor east",
      "First floor west",
      "Supermarket",
      "Kids zone",
      "Rooftop",
    ],
  },
  {
    kind: "hotel",
    name: "Savanna Grand Hotel",
    address: "Kenyatta Avenue, Nairobi",
    lat: -1.28638,
    lng: 36.81722,
    phone: "+254203250000",
    email: "reservations@savannagrand.co.ke",
    ssids: ["Savanna Guest", "Savanna Conference"],
    traffic: 1.3,
    size: 7,
    areas: ["Reception", "Lobby bar", "Conference hall", "Restaurant", "Pool deck", "Floor 3", "Floor 5"],
  },
  {
    kind: "resort",
    name: "Pwani Beach Resort",
    address: "Nyali Road, Nyali, Mombasa",
    lat: -4.04348,
    lng: 39.71398,
    phone: "+254414471000",
    email: "stay@pwanibeach.co.ke",
    ssids: ["Pwani Beach Guest"],
    traffic: 1,
    size: 6,
    areas: ["Reception", "Beach bar", "Pool", "Garden wing", "Ocean wing", "Spa"],
  },
  {
    kind: "mall",
    name: "Bandari Mall",
    address: "Moi Avenue, Mombasa",
    lat: -4.06204,
    lng: 39.67205,
    phone: "+254412220800",
    email: "info@bandarimall.co.ke",
    ssids: ["Bandari Mall WiFi"],
    traffic: 2.2,
    size: 4,
    areas: ["Entrance", "Food court", "Upper level", "Supermarket"],
  },
  {
    kind: "coworking",
    name: "Kilele Coworking",
    address: "Ngong Road, Kilimani, Nairobi",
    lat: -1.29662,
    lng: 36.78771,
    phone: "+254205100900",
    email: "desk@kilele.co.ke",
    ssids: ["Kilele Members", "Kilele Visitors"],
    traffic: 0.8,
    size: 3,
    areas: ["Open desks", "Meeting rooms", "Kitchen"],
  },
  {
    kind: "cafe",
    name: "Chai na Mandazi",
    address: "Biashara Street, Old Town, Mombasa",
    lat: -4.06121,
    lng: 39.67911,
    phone: "+254412315500",
    email: "karibu@chainamandazi.co.ke",
    ssids: ["Chai na Mandazi WiFi"],
    traffic: 0.7,
    size: 2,
    areas: ["Café", "Courtyard"],
  },
];

/** Relative busyness by local hour (0–23). */
const HOURLY: Record<VenueKind, readonly number[]> = {
  //      0     1     2     3     4     5     6    7    8    9   10   11   12   13   14   15   16   17   18   19   20   21   22    23
  cafe: [0.02, 0.01, 0.01, 0.01, 0.01, 0.03, 0.2, 0.8, 1.3, 1.1, 0.9, 1.1, 1.9, 2.0, 1.3, 0.9, 1.0, 1.3, 1.2, 0.9, 0.6, 0.3, 0.1, 0.05],
  mall: [0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.02, 0.1, 0.3, 0.7, 1.0, 1.3, 1.8, 1.9, 1.5, 1.3, 1.5, 1.9, 2.2, 2.0, 1.5, 0.8, 0.3, 0.05],
  hotel: [0.35, 0.2, 0.12, 0.08, 0.08, 0.15, 0.6, 1.1, 1.0, 0.7, 0.6, 0.7, 1.0, 1.0, 0.7, 0.6, 0.7, 1.0, 1.4, 1.8, 2.0, 1.8, 1.3, 0.7],
  resort: [0.3, 0.15, 0.1, 0.06, 0.06, 0.1, 0.4, 0.9, 1.1, 0.9, 0.7, 0.8, 1.1, 1.0, 0.8, 0.8, 1.0, 1.3, 1.6, 1.9, 2.0, 1.7, 1.1, 0.6],
  coworking: [
    0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.05, 0.5, 1.6, 2.0, 1.8, 1.6, 1.2, 1.4, 1.7, 1.6, 1.3, 0.9, 0.5, 0.3, 0.15, 0.08, 0.04, 0.02,
  ],
};

/** Relative busyness by local weekday, Monday first: malls and cafés fill up at the weekend. */
const WEEKLY: Record<VenueKind, readonly number[]> = {
  cafe: [0.9, 0.9, 0.95, 0.95, 1.1, 1.35, 1.25],
  mall: [0.75, 0.75, 0.8, 0.85, 1.1, 1.7, 1.6],
  hotel: [0.95, 1, 1, 1, 1.1, 1.15, 0.9],
  resort: [0.85, 0.85, 0.9, 0.95, 1.15, 1.35, 1.2],
  coworking: [1.2, 1.25, 1.25, 1.2, 1, 0.25, 0.1],
};

/** Kenya keeps UTC+3 all year. */
const LOCAL_OFFSET_MS = 3 * 3_600_000;

export function rhythm(kind: VenueKind, utcMs: number): number {
  const local = new Date(utcMs + LOCAL_OFFSET_MS);
  const weekday = (local.getUTCDay() + 6) % 7;
  return HOURLY[kind][local.getUTCHours()] * WEEKLY[kind][weekday];
}

/** Share of portal visits that end with the guest online. */
export const AUTHORIZED_SHARE: Record<VenueKind, number> = { cafe: 0.82, mall: 0.74, hotel: 0.88, resort: 0.86, coworking: 0.9 };

/** Median minutes online and the spread of the log-normal around it. */
export const DWELL: Record<VenueKind, { median: number; sigma: number }> = {
  cafe: { median: 35, sigma: 0.7 },
  mall: { median: 25, sigma: 0.8 },
  hotel: { median: 150, sigma: 0.8 },
  resort: { median: 180, sigma: 0.8 },
  coworking: { median: 240, sigma: 0.5 },
};

export const AUTHORIZATION_MODES: Record<VenueKind, (random: Random) => string> = {
  cafe: weighted([
    ["CLICK_THROUGH", 40],
    ["SIGNUP", 25],
    ["google", 13],
    ["fb", 12],
    ["MPESA", 7],
    ["VOUCHER", 3],
  ]),
  mall: weighted([
    ["SIGNUP", 35],
    ["CLICK_THROUGH", 25],
    ["google", 13],
    ["fb", 12],
    ["MPESA", 10],
    ["VOUCHER", 5],
  ]),
  hotel: weighted([
    ["VOUCHER", 45],
    ["SIGNUP", 20],
    ["CLICK_THROUGH", 15],
    ["google", 10],
    ["fb", 5],
    ["MPESA", 5],
  ]),
  resort: weighted([
    ["VOUCHER", 35],
    ["MPESA", 25],
    ["SIGNUP", 20],
    ["google", 10],
    ["fb", 5],
    ["CLICK_THROUGH", 5],
  ]),
  coworking: weighted([
    ["MPESA", 40],
    ["VOUCHER", 30],
    ["SIGNUP", 20],
    ["google", 10],
  ]),
};

export const FIRST_NAMES = [
  "Wanjiku",
  "Kamau",
  "Achieng",
  "Otieno",
  "Njeri",
  "Mwangi",
  "Chebet",
  "Kiprono",
  "Wambui",
  "Omondi",
  "Akinyi",
  "Mutua",
  "Nduta",
  "Kiptoo",
  "Jeptoo",
  "Baraka",
  "Amina",
  "Fatuma",
  "Hassan",
  "Zawadi",
  "Imani",
  "Brian",
  "Kevin",
  "Faith",
  "Mercy",
  "Grace",
  "Dennis",
  "Collins",
  "Sharon",
  "Purity",
  "Wafula",
  "Nafula",
  "Auma",
  "Juma",
  "Halima",
  "Said",
  "Mwanaisha",
  "Kilonzo",
  "Mwikali",
  "Nyokabi",
  "Esther",
  "Joseph",
  "Peter",
  "Mary",
  "Ann",
  "John",
  "Daniel",
  "Caroline",
  "Ian",
  "Sheila",
] as const;

export const LAST_NAMES = [
  "Kamau",
  "Otieno",
  "Ochieng",
  "Mwangi",
  "Njoroge",
  "Kariuki",
  "Wafula",
  "Wekesa",
  "Kiptoo",
  "Cheruiyot",
  "Mohamed",
  "Abdalla",
  "Odhiambo",
  "Onyango",
  "Maina",
  "Kimani",
  "Njuguna",
  "Mutiso",
  "Musyoka",
  "Kilonzo",
  "Barasa",
  "Nyambura",
  "Wanjiru",
  "Rotich",
  "Koech",
  "Langat",
  "Omar",
  "Ali",
  "Mbugua",
  "Gitau",
  "Macharia",
  "Ndungu",
  "Owino",
  "Okoth",
  "Simiyu",
  "Chege",
  "Korir",
  "Mutai",
  "Atieno",
  "Mwende",
] as const;

export const EMAIL_DOMAINS = weighted([
  ["gmail.com", 70],
  ["yahoo.com", 12],
  ["outlook.com", 10],
  ["icloud.com", 5],
  ["students.uonbi.ac.ke", 3],
]);

export interface DeviceProfile {
  os: string;
  versions: readonly string[];
  brands: (random: Random) => string;
  browsers: (random: Random) => string;
  isMobile: boolean;
}

const ANDROID_BRANDS = weighted([
  ["Samsung", 28],
  ["Tecno", 20],
  ["Infinix", 15],
  ["Xiaomi", 12],
  ["Oppo", 8],
  ["itel", 6],
  ["Huawei", 5],
  ["Nokia", 4],
  ["Vivo", 2],
]);

export const DEVICE_PROFILES = weighted<DeviceProfile>([
  [
    {
      os: "Android",
      versions: ["10", "11", "12", "13", "14", "15"],
      brands: ANDROID_BRANDS,
      browsers: weighted([
        ["Chrome", 62],
        ["Opera", 14],
        ["Samsung Internet", 12],
        ["UC Browser", 6],
        ["Firefox", 4],
        ["Edge", 2],
      ]),
      isMobile: true,
    },
    62,
  ],
  [
    {
      os: "iOS",
      versions: ["15.8", "16.7", "17.5", "17.6", "18.1", "18.3"],
      brands: () => "Apple",
      browsers: weighted([
        ["Safari", 84],
        ["Chrome", 13],
        ["Firefox", 3],
      ]),
      isMobile: true,
    },
    15,
  ],
  [
    {
      os: "Windows",
      versions: ["10", "11"],
      brands: weighted([
        ["HP", 35],
        ["Dell", 30],
        ["Lenovo", 25],
        ["Acer", 5],
        ["Asus", 5],
      ]),
      browsers: weighted([
        ["Chrome", 60],
        ["Edge", 30],
        ["Firefox", 8],
        ["Opera", 2],
      ]),
      isMobile: false,
    },
    12,
  ],
  [
    {
      os: "macOS",
      versions: ["13.6", "14.5", "14.7", "15.1"],
      brands: () => "Apple",
      browsers: weighted([
        ["Safari", 50],
        ["Chrome", 45],
        ["Firefox", 5],
      ]),
      isMobile: false,
    },
    6,
  ],
  [
    {
      os: "ChromeOS",
      versions: ["120", "124", "128"],
      brands: weighted([
        ["HP", 40],
        ["Lenovo", 30],
        ["Acer", 20],
        ["Asus", 10],
      ]),
      browsers: () => "Chrome",
      isMobile: false,
    },
    3,
  ],
  [
    {
      os: "Linux",
      versions: ["Ubuntu 22.04", "Ubuntu 24.04", "Fedora 40"],
      brands: weighted([
        ["Dell", 40],
        ["Lenovo", 40],
        ["HP", 20],
      ]),
      browsers: weighted([
        ["Firefox", 55],
        ["Chrome", 45],
      ]),
      isMobile: false,
    },
    2,
  ],
]);

export const MODELS: Record<string, readonly string[]> = {
  Samsung: ["Galaxy A14", "Galaxy A05s", "Galaxy A24", "Galaxy S23", "Galaxy A54"],
  Tecno: ["Spark 10", "Camon 20", "Pop 7", "Spark 20 Pro"],
  Infinix: ["Hot 30", "Smart 8", "Note 30", "Hot 40i"],
  Xiaomi: ["Redmi Note 12", "Redmi 13C", "Redmi A2"],
  Oppo: ["A17", "A58", "Reno 8"],
  itel: ["A70", "S23", "P40"],
  Huawei: ["Nova Y70", "P30 Lite", "Y9 Prime"],
  Nokia: ["G21", "C32", "G42"],
  Vivo: ["Y17s", "Y36"],
  Apple: ["iPhone 11", "iPhone 13", "iPhone 14", "iPhone 15", "iPad"],
  HP: ["ProBook", "EliteBook", "Pavilion"],
  Dell: ["Latitude", "Inspiron", "XPS 13"],
  Lenovo: ["ThinkPad", "IdeaPad"],
  Acer: ["Aspire", "Chromebook"],
  Asus: ["VivoBook", "ZenBook"],
};

export const MAC_MODELS: readonly string[] = ["MacBook Air", "MacBook Pro"];

/** Access point makes (the spec's list) with plausible OUI prefixes and serial formats. */
export const AP_MAKES: readonly { make: string; oui: string; serial: (random: Random) => string }[] = [
  { make: "Meraki", oui: "e0:55:3d", serial: (r) => `Q2${code(r, 2)}-${code(r, 4)}-${code(r, 4)}` },
  { make: "Mikrotik", oui: "4c:5e:0c", serial: (r) => `HD${code(r, 10)}` },
  { make: "Cisco Controller", oui: "00:1b:d4", serial: (r) => `FCW${r.int(2100, 2452)}${code(r, 4)}` },
  { make: "Rukus", oui: "58:93:96", serial: (r) => String(r.int(100000, 999999)) + String(r.int(100000, 999999)) },
  { make: "Mlango", oui: "02:4d:4c", serial: (r) => `MLG-${code(r, 8)}` },
];

const CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";

function code(random: Random, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += CODE_CHARS[Math.floor(random.next() * CODE_CHARS.length)];
  return out;
}
