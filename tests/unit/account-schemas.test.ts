import { describe, expect, it } from "vitest";
import { MESSAGES, loginSchema, registerSchema, resetPasswordSchema, withRedirectTo } from "~/lib/schemas/accounts";

describe("account schemas", () => {
  it("stores the sign-up email lower-cased and the phone in E.164", () => {
    const parsed = registerSchema.parse({
      first_name: " Amina ",
      last_name: "Otieno",
      email: "Amina@Example.COM",
      phone_number: "0712 345 678",
      password: "12345678",
    });
    expect(parsed).toMatchObject({ first_name: "Amina", email: "amina@example.com", phone_number: "+254712345678" });
  });

  it("refuses an email typed into the phone field", () => {
    const result = registerSchema.safeParse({
      first_name: "A",
      last_name: "B",
      email: "a@b.co",
      phone_number: "a@b.co",
      password: "12345678",
    });
    expect(result.success).toBe(false);
    expect(result.error?.flatten().fieldErrors.phone_number).toEqual([MESSAGES.phoneInvalid]);
  });

  it("never trims a password", () => {
    expect(loginSchema.parse({ login_id: " 0712345678 ", password: " pass " })).toEqual({ login_id: "0712345678", password: " pass " });
  });

  it("refuses an over-long password before anything hashes it", () => {
    const result = loginSchema.safeParse({ login_id: "a@b.co", password: "x".repeat(201) });
    expect(result.error?.flatten().fieldErrors.password).toEqual([MESSAGES.passwordTooLong]);
  });

  it("puts a confirmation mismatch on the confirmation field", () => {
    const result = resetPasswordSchema.safeParse({ login_id: "a@b.co", password: "12345678", password_confirmation: "12345679" });
    expect(result.error?.flatten().fieldErrors).toEqual({ password_confirmation: [MESSAGES.passwordMismatch] });
  });
});

describe("withRedirectTo", () => {
  it("carries the wanted page between guest pages", () => {
    expect(withRedirectTo("/register", "/5/venues?page=2")).toBe("/register?redirectTo=%2F5%2Fvenues%3Fpage%3D2");
    expect(withRedirectTo("/register", "")).toBe("/register");
    expect(withRedirectTo("/register", null)).toBe("/register");
  });
});
