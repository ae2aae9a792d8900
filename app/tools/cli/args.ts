// Command lines described once: the options are parsed with node:util parseArgs and the usage is
// printed from the same description. The mlango command line (cli.ts) and the gateway simulator
// (scripts/simulate.ts) use it.
import { parseArgs } from "node:util";

export interface Option {
  type: "string" | "boolean";
  /** The value's placeholder in the usage ("N", "URL"); string options only. */
  value?: string;
  summary: string;
  required?: boolean;
  default?: string | boolean;
}

export type Options = Record<string, Option>;

type ValueOf<T extends Option["type"]> = T extends "boolean" ? boolean : string;
export type Values<O extends Options> = { [K in keyof O]?: ValueOf<O[K]["type"]> };

/** What a command line takes: named in messages, described in the usage. */
export interface Synopsis<O extends Options = Options> {
  name: string;
  summary: string;
  /** A required positional argument ("ID"); a command line without one refuses positional arguments. */
  argument?: { name: string; summary: string };
  options: O;
}

/** Bad input on the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** A whole number of at least `min` from an option's text (underscores allowed: 1_000_000). */
export function wholeNumber(option: string, raw: string, min = 0): number {
  const n = Number(raw.replace(/_/g, ""));
  if (raw.trim() === "" || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(`${option} must be a whole number of at least ${min}, got "${raw}".`);
  return n;
}

/** Parses `args` against the synopsis; UsageError for anything it does not take. `help`: -h or --help was given. */
export function parseCommandLine<O extends Options>(
  synopsis: Synopsis<O>,
  args: string[],
): { values: Values<O>; argument?: string; help: boolean } {
  const config = Object.fromEntries(
    Object.entries(synopsis.options).map(([name, o]) => [
      name,
      o.default === undefined ? { type: o.type } : { type: o.type, default: o.default },
    ]),
  );
  // strict: false and a look at the tokens, for messages that name this program (parseArgs' own
  // strict errors describe its API).
  const { values, positionals, tokens } = parseArgs({
    args,
    options: { ...config, help: { type: "boolean", short: "h" } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (values.help) return { values: {}, help: true };
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const option = synopsis.options[token.name];
    if (!option) throw new UsageError(`Unknown option "${token.rawName}" for ${synopsis.name}.`);
    if (option.type === "string" && token.value === undefined) throw new UsageError(`${token.rawName} needs a value.`);
    if (option.type === "boolean" && token.inlineValue) throw new UsageError(`${token.rawName} takes no value.`);
  }
  for (const [name, option] of Object.entries(synopsis.options)) {
    if (option.required && values[name] === undefined) throw new UsageError(`${synopsis.name} needs --${name} ${option.value ?? "VALUE"}.`);
  }
  if (synopsis.argument) {
    if (positionals.length === 0) throw new UsageError(`${synopsis.name} needs ${synopsis.argument.name}.`);
    if (positionals.length > 1) throw new UsageError(`${synopsis.name} takes one ${synopsis.argument.name}, got ${positionals.length}.`);
  } else if (positionals.length > 0) {
    throw new UsageError(`${synopsis.name} takes no arguments, got "${positionals[0]}".`);
  }
  const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Values<O>;
  return { values: given, argument: positionals[0], help: false };
}

/** The usage: `invocation` (what is typed before the options), the summary, the arguments and options with their defaults. */
export function usage(synopsis: Synopsis, invocation: string): string {
  const options = Object.entries(synopsis.options);
  const line = [
    invocation,
    ...(synopsis.argument ? [synopsis.argument.name] : []),
    ...options.filter(([, o]) => o.required).map(([name, o]) => `--${name} ${o.value ?? "VALUE"}`),
    ...(options.some(([, o]) => !o.required) ? ["[options]"] : []),
  ].join(" ");
  const argumentRows: [string, string][] = synopsis.argument ? [[synopsis.argument.name, synopsis.argument.summary]] : [];
  const optionRows: [string, string][] = [
    ...options.map(([name, o]): [string, string] => [
      o.type === "string" ? `--${name} ${o.value ?? "VALUE"}` : `--${name}`,
      o.required ? `${o.summary} (required)` : typeof o.default === "string" ? `${o.summary} (default: ${o.default})` : o.summary,
    ]),
    ["-h, --help", "show this help"],
  ];
  const width = Math.max(...[...argumentRows, ...optionRows].map(([left]) => left.length));
  const section = (title: string, rows: [string, string][]) =>
    rows.length ? ["", `${title}:`, ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)] : [];
  return [
    `Usage: ${line}`,
    "",
    `${synopsis.summary[0]!.toUpperCase()}${synopsis.summary.slice(1)}.`,
    ...section("Arguments", argumentRows),
    ...section("Options", optionRows),
  ].join("\n");
}
