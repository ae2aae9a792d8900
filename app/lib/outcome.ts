// The result of a service call that can be refused with messages for the form: `ok: true` plus the
// call's data, or field errors (by field name) and form-level errors. Pure, usable by any service.

type FieldErrors = Record<string, string[]>;
export type Outcome<T = object> = ({ ok: true } & T) | { ok: false; fieldErrors?: FieldErrors; formErrors?: string[] };
