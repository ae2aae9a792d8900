import { describe, expect, it } from "vitest";
import { authModeLabel } from "~/lib/auth-modes";

describe("authorization modes as words", () => {
  it("names the portal's codes, the social providers and the roll-ups' unknown", () => {
    expect(
      ["SIGNUP", "CLICK_THROUGH", "VOUCHER", "MPESA", "SUBSCRIPTION", "fb", "google", "linkedin", "unknown"].map(authModeLabel),
    ).toEqual(["Sign-up", "Click-through", "Voucher", "M-Pesa", "Subscription", "Facebook", "Google", "LinkedIn", "Unknown"]);
  });

  it("shows a missing mode as Unknown and a code it does not know as it is", () => {
    expect(authModeLabel(null)).toBe("Unknown");
    expect(authModeLabel("")).toBe("Unknown");
    expect(authModeLabel("PORTAL_X")).toBe("PORTAL_X");
  });
});
