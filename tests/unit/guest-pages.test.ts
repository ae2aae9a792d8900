// The guest pages as the guest routes send them (app/guest/pages.tsx): static markup with no
// script, every guest- or operator-typed value escaped, the connect page small, and the same card
// inside an operator's splash frame.
import { describe, expect, it, vi } from "vitest";
import {
  connectPage,
  loginPage,
  messagePage,
  onlinePage,
  PLAIN,
  previewCard,
  refusalPage,
  refusalStatus,
  waitingPage,
} from "~/guest/pages";
import { html } from "~/guest/html";
import type { GuestView } from "~/services/portal/connect.server";

const view = (over: Partial<GuestView> = {}): GuestView => ({
  state: "form",
  connectionId: 7,
  organizationId: 1,
  customerId: null,
  deviceProved: true,
  authorizedAt: null,
  network: {
    id: 3,
    name: "Java <House>",
    termsUrl: "https://example.com/terms?a=1&b=2",
    privacyUrl: null,
    guestSignup: true,
    organizationName: "Java & Co's",
    language: "en",
  },
  clock: { timeZone: "UTC", offsetMs: 0 },
  customer: { firstName: null, middleName: null, lastName: null, emailAddress: null, phoneNumber: null },
  needsSignup: true,
  signupFields: { phone: "required", email: "required", names: "required" },
  acceptedNotice: null,
  providers: ["google"],
  place: { organizationId: 1, venueId: 3, accessPointId: 5, deviceId: 7, networkPageId: null } as GuestView["place"],
  freePlan: { timeLimitMinutes: 30, usageLimitBytes: null, validityMinutes: 1440, every: "day" },
  vouchers: true,
  held: null,
  plansForSale: [{ id: 4, name: "Two hours", price: 50, timeLimitMinutes: 120, usageLimitBytes: null, validityMinutes: 1440 }],
  ...over,
});

describe("the connect page", () => {
  it("is one small document without script, its values escaped, its forms posting without JavaScript", () => {
    const page = connectPage(view(), "tok&en", {
      values: { first_name: '"><b>x</b>', marketing_opt_in: "on" },
      errors: { last_name: ["Last name field is required."] },
    });
    expect(page.startsWith('<!doctype html><html lang="en"><head><meta charSet="utf-8"/>')).toBe(true);
    expect(Buffer.byteLength(page)).toBeLessThan(15 * 1024);
    expect(page).not.toMatch(/<script|\son[a-z]+=/i);
    expect(page).toContain('<p class="venue">Java &lt;House&gt;</p><h1>Get connected to WiFi</h1>');
    expect(page).toContain('<input type="hidden" name="token" value="tok&amp;en"/>');
    expect(page).toContain(
      '<input id="first_name" name="first_name" type="text" autoComplete="given-name" value="&quot;&gt;&lt;b&gt;x&lt;/b&gt;"/>',
    );
    expect(page).toContain('aria-invalid="true" aria-describedby="last_name-error"');
    expect(page).toContain('<p class="err" id="last_name-error">Last name field is required.</p>');
    expect(page).toContain('<input type="checkbox" name="marketing_opt_in" checked=""/>');
    expect(page).toContain('value="07"/>'); // the phone's prefix
    expect(page).toContain(
      'By connecting you accept Java &amp; Co&#x27;s&#x27;s <a href="https://example.com/terms?a=1&amp;b=2">terms of use</a> and privacy notice.',
    );
    expect(page).toContain('<p class="plan">Free Wi-Fi: 30 minutes, once a day.</p>');
    expect(page).toContain(
      '<input type="radio" name="plan_id" checked="" value="4"/><span><b>Two hours</b> — Kes 50<br/><small>2 hours, for use within 1 day</small>',
    );
    expect(page).toContain('<a class="btn alt" href="/splash/google/login?token=tok%26en">Continue with Google</a>');
    for (const action of ['action="/connect" novalidate=""', 'class="voucher" novalidate=""', 'action="/connect/mpesa" novalidate=""'])
      expect(page).toContain(action);
  });

  it("shows a banner as a plain image link", () => {
    const banner = {
      id: 9,
      href: "/ads/click/9?token=t",
      src: "/assets/ads/1/banner-0123456789abcdef.gif",
      width: 32,
      height: 16,
      description: null,
    };
    expect(connectPage(view(), "t", {}, PLAIN, banner)).toContain(
      '<p class="ad" style="margin:0 0 1rem;text-align:center"><a href="/ads/click/9?token=t" data-banner="9"><img src="/assets/ads/1/banner-0123456789abcdef.gif" width="32" height="16" alt="Advertisement" style="max-width:100%;height:auto;border-radius:.5rem"/></a><br/><small>Sponsored</small></p>',
    );
  });

  it("goes inside an operator's frame as the same card, with a second-level heading", () => {
    const frame = { before: '<!doctype html><html><body><h1>Karibu</h1><div class="mlango-form">', after: "</div></body></html>" };
    const page = connectPage(view({ needsSignup: false }), "t", {}, { ...PLAIN, frame });
    expect(page.startsWith(frame.before + '<p class="venue">')).toBe(true);
    expect(page.endsWith("Continue with Google</a>" + frame.after)).toBe(true);
    expect(page).toContain('<p class="venue">Java &lt;House&gt;</p><h2>Get connected to WiFi</h2>');
    expect(page).toContain(
      '<form method="post" action="/connect"><input type="hidden" name="token" value="t"/><input type="hidden" name="mode" value="CLICK_THROUGH"/><button type="submit">Connect</button></form><p class="or"><small>By connecting',
    );
    expect(previewCard()).toContain("Preview: guests connect to the Wi-Fi with this form.");
  });
});

describe("the other guest pages", () => {
  it("say why a token cannot be used, with the status that goes with it", () => {
    expect(refusalStatus(null)).toBe(404);
    expect(refusalStatus(view({ state: "expired" }))).toBe(410);
    expect(refusalPage(view({ state: "authorized" }))).toContain(
      '<p class="venue">Java &lt;House&gt;</p><h1>Get connected to WiFi</h1><div class="alert" role="alert">',
    );
    expect(messagePage("Not <found>", ["a & b"])).toContain(
      '<div class="card"><h1>Not &lt;found&gt;</h1><div class="alert" role="alert"><p>a &amp; b</p></div></div>',
    );
  });

  it("the online page carries the survey offer's markup under its card; an end on another day names the day", () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 11, 2, 12, 0), toFake: ["Date"] });
    try {
      const survey = html`<form class="card survey">${"<i>"}</form>`;
      expect(onlinePage(view({ state: "authorized" }), Date.UTC(2026, 11, 2, 14, 5), survey)).toContain(
        '<div class="alert ok" role="status"><p>You can now use the internet.</p><p>Your session lasts until 14:05 UTC.</p></div></div><div><form class="card survey">&lt;i&gt;</form></div>',
      );
      expect(onlinePage(view({ state: "authorized" }), Date.UTC(2026, 11, 3, 1, 5), survey)).toContain(
        "<p>Your session lasts until 3 Dec 01:05 UTC.</p>",
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("the waiting page links to its own check and back", () => {
    const page = waitingPage("Cafe", "a b", 12, { planName: "Day", amount: 20, phone: "254712345678" });
    expect(page).toContain("Enter your M-Pesa PIN on 0712345678 to pay Kes 20 for Day.");
    expect(page).toContain('href="/connect/mpesa/wait?token=a%20b&amp;payment=12"');
  });

  it("the gateway login page runs its one script", () => {
    const page = loginPage({ action: "http://10.5.50.1/login", fields: [["username", "mlg1"]] }, "Cafe");
    expect(page).toContain(
      '<form id="login" method="post" action="http://10.5.50.1/login"><input type="hidden" name="username" value="mlg1"/>',
    );
    expect(page).toMatch(/<script>document\.getElementById\('login'\)\.submit\(\)<\/script><\/body><\/html>$/);
  });
});
