import { z } from "zod";
import { looksLikeEmail, normalizePhone } from "~/lib/phone";

// The user profile forms (docs/guide/accounts.md#profile), shared by the
// pages and the API (PUT profile, PUT profile/password).

export const PROFILE_MESSAGES = {
  firstNameRequired: "First name field is required.",
  lastNameRequired: "Last name field is required.",
  phoneRequired: "Phone number field is required.",
  emailRequired: "Email field is required.",
  emailInvalid: "Please enter a valid email address.",
  phoneInvalid: "Please enter a valid phone number, such as 0712 345 678 or +254 712 345 678.",
  emailTaken: "This email address is already used by another account.",
  phoneTaken: "This phone number is already used by another account.",
  oldPasswordRequired: "Old Password field is required.",
  newPasswordRequired: "New password field is required.",
  confirmationRequired: "New password confirmation field is required.",
  oldPasswordWrong: "The old password is incorrect.",
  currentPasswordWrong: "Enter your current password to change your e-mail address.",
  passwordTooShort: "The password must be at least 8 characters.",
  passwordTooLong: "The password may not be longer than 200 characters.",
  passwordMismatch: "The password confirmation does not match.",
  tooLong: "This value is too long.",
} as const;

export const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 200; // scrypt on a huge input would be a cheap way to burn CPU

function requiredText(message: string, max: number) {
  return z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, PROFILE_MESSAGES.tooLong);
}

/** Passwords are never trimmed: spaces are characters like any other. */
function requiredPassword(message: string) {
  return z
    .string({ required_error: message, invalid_type_error: message })
    .min(1, message)
    .max(PASSWORD_MAX_LENGTH, PROFILE_MESSAGES.passwordTooLong);
}

export const profileSchema = z.object({
  first_name: requiredText(PROFILE_MESSAGES.firstNameRequired, 100),
  middle_name: z
    .string()
    .trim()
    .max(100, PROFILE_MESSAGES.tooLong)
    .optional()
    .transform((v) => (v ? v : null)),
  last_name: requiredText(PROFILE_MESSAGES.lastNameRequired, 100),
  email: requiredText(PROFILE_MESSAGES.emailRequired, 254)
    .email(PROFILE_MESSAGES.emailInvalid)
    .transform((email) => email.toLowerCase()),
  phone_number: requiredText(PROFILE_MESSAGES.phoneRequired, 32).transform((value, ctx) => {
    const phone = looksLikeEmail(value) ? null : normalizePhone(value);
    if (phone) return phone;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: PROFILE_MESSAGES.phoneInvalid });
    return z.NEVER;
  }),
  // Needed only when the e-mail address changes.
  current_password: z.string().max(PASSWORD_MAX_LENGTH, PROFILE_MESSAGES.passwordTooLong).optional(),
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const passwordChangeSchema = z
  .object({
    old_password: requiredPassword(PROFILE_MESSAGES.oldPasswordRequired),
    password: requiredPassword(PROFILE_MESSAGES.newPasswordRequired).refine(
      (p) => p.length >= PASSWORD_MIN_LENGTH,
      PROFILE_MESSAGES.passwordTooShort,
    ),
    password_confirmation: requiredPassword(PROFILE_MESSAGES.confirmationRequired),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: PROFILE_MESSAGES.passwordMismatch,
    path: ["password_confirmation"],
  });
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;
