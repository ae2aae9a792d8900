// A command of the operations command line (`npm run mlango -- <command> [options]`): its name, a
// one-line summary, its options and what it does. cli.ts parses the arguments against `options`
// before `run` is called, and prints the usage from the same description.

export interface Option {
  type: "string" | "boolean";
  /** The value's placeholder in the usage ("N", "ID"); string options only. */
  value?: string;
  summary: string;
  required?: boolean;
}

export type Options = Record<string, Option>;

type ValueOf<T extends Option["type"]> = T extends "boolean" ? boolean : string;
export type Values<O extends Options> = { [K in keyof O]?: ValueOf<O[K]["type"]> };

export interface Command<O extends Options = Options> {
  name: string;
  summary: string;
  /** A required positional argument ("ID"); a command without one refuses positional arguments. */
  argument?: { name: string; summary: string };
  options: O;
  /** Resolves to the exit code (0 when nothing is returned). Throws UsageError for bad input. */
  run(values: Values<O>, argument: string | undefined): Promise<number | void>;
}

export function defineCommand<O extends Options>(command: Command<O>): Command<O> {
  return command;
}

/** Bad input on the command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

/** A whole number of at least `min` from an option's text (underscores allowed: 1_000_000). */
export function wholeNumber(option: string, raw: string, min = 0): number {
  const n = Number(raw.replace(/_/g, ""));
  if (raw.trim() === "" || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(`${option} must be a whole number of at least ${min}, got "${raw}".`);
  return n;
}
