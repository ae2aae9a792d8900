import { z } from "zod";
import { looksLikeEmail, normalizePhone } from "~/lib/phone";

// The account forms (login, sign up, forgot and reset password), shared by the pages and the
// API (POST /account/api/v1/auth/login). Required-field messages are the spec's, word for word.

export const MESSAGES = {
  loginIdRequired: "Email or phone number field is required.",
  passwordRequired: "Password field is required.",
  firstNameRequired: "First name field is required.",
  lastNameRequired: "Last name field is required.",
  phoneRequired: "Phone number field is required.",
  emailRequired: "Email field is required.",
  confirmationRequired: "Confirmation password field is required.",
  emailInvalid: "Please enter a valid email address.",
  phoneInvalid: "Please enter a valid phone number, such as 0712 345 678 or +254 712 345 678.",
  passwordTooShort: "The password must be at least 8 characters.",
  passwordTooLong: "The password may not be longer than 200 characters.",
  passwordMismatch: "The password confirmation does not match.",
  tooLong: "This value is too long.",
  registerFailed: "We encountered an issue while processing your request. Please try again",
} as const;

export const PASSWORD_MIN_LENGTH = 8;
/** After a password reset the page goes to login after this long (docs/guide/accounts.md#reset-password). */
export const REDIRECT_AFTER_RESET_MS = 3000;
const PASSWORD_MAX_LENGTH = 200; // scrypt on a huge input would be a cheap way to burn CPU
const LOGIN_ID_MAX_LENGTH = 254; // the longest email address

/** A required text field: conform turns an empty field into undefined, so the message goes on both. */
function requiredText(message: string, max: number) {
  return z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, MESSAGES.tooLong);
}

/** Passwords are never trimmed: spaces are characters like any other. */
function requiredPassword(message: string) {
  return z
    .string({ required_error: message, invalid_type_error: message })
    .min(1, message)
    .max(PASSWORD_MAX_LENGTH, MESSAGES.passwordTooLong);
}

const newPassword = requiredPassword(MESSAGES.passwordRequired).refine((p) => p.length >= PASSWORD_MIN_LENGTH, MESSAGES.passwordTooShort);

const loginId = requiredText(MESSAGES.loginIdRequired, LOGIN_ID_MAX_LENGTH);

/** Where to go after signing in; checked with safeRedirect where it is used. */
const redirectTo = z.string().max(2000).optional();

export const loginSchema = z.object({
  login_id: loginId,
  password: requiredPassword(MESSAGES.passwordRequired),
  redirectTo,
});

export const registerSchema = z.object({
  first_name: requiredText(MESSAGES.firstNameRequired, 100),
  last_name: requiredText(MESSAGES.lastNameRequired, 100),
  email: requiredText(MESSAGES.emailRequired, LOGIN_ID_MAX_LENGTH)
    .email(MESSAGES.emailInvalid)
    .transform((email) => email.toLowerCase()),
  phone_number: requiredText(MESSAGES.phoneRequired, 32).transform((value, ctx) => {
    const phone = looksLikeEmail(value) ? null : normalizePhone(value);
    if (phone) return phone;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: MESSAGES.phoneInvalid });
    return z.NEVER;
  }),
  password: newPassword,
  redirectTo,
});

export const forgotPasswordSchema = z.object({
  login_id: loginId,
});

export const resetPasswordSchema = z
  .object({
    login_id: loginId,
    password: newPassword,
    password_confirmation: requiredPassword(MESSAGES.confirmationRequired),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: MESSAGES.passwordMismatch,
    path: ["password_confirmation"],
  });

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;

/** A link between the guest pages that keeps the page the visitor wanted (?redirectTo=…). */
export function withRedirectTo(path: string, redirectTo: string | null | undefined): string {
  return redirectTo ? `${path}?${new URLSearchParams({ redirectTo })}` : path;
}
