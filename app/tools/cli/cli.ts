// The operations command line: `npm run mlango -- <command> [options]` (main.ts runs it).
// Every command is a file in commands/; this file lists them, parses the arguments against the
// command's options (node:util parseArgs) and prints the usage. Exit codes: 0 done, 1 the command
// failed, 2 the command line was wrong (an unknown command or option, a missing or bad value).
import { parseArgs } from "node:util";
import { UsageError, type Command, type Options, type Values } from "./command";
import demo from "./commands/demo";
import generate from "./commands/generate";
import jobsList from "./commands/jobs-list";
import jobsRetry from "./commands/jobs-retry";
import jobsWork from "./commands/jobs-work";
import migrate from "./commands/migrate";
import portalEndIdle from "./commands/portal-end-idle";
import reportsRun from "./commands/reports-run";
import rollupsRebuild from "./commands/rollups-rebuild";
import seed from "./commands/seed";

export const COMMANDS: readonly Command[] = [
  migrate,
  seed,
  demo,
  generate,
  reportsRun,
  jobsWork,
  jobsList,
  jobsRetry,
  portalEndIdle,
  rollupsRebuild,
];

const PROGRAM = "npm run mlango --";

export function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    `\`${PROGRAM} <command> --help\` shows a command's options. The database is DATABASE_URL's (see the README).`,
  ].join("\n");
}

export function usage(command: Command): string {
  const options = Object.entries(command.options);
  const synopsis = [
    command.name,
    ...(command.argument ? [command.argument.name] : []),
    ...options.filter(([, o]) => o.required).map(([name, o]) => `--${name} ${o.value ?? "VALUE"}`),
    ...(options.some(([, o]) => !o.required) ? ["[options]"] : []),
  ].join(" ");
  const argumentRows: [string, string][] = command.argument ? [[command.argument.name, command.argument.summary]] : [];
  const optionRows: [string, string][] = [
    ...options.map(([name, o]): [string, string] => [
      o.type === "string" ? `--${name} ${o.value ?? "VALUE"}` : `--${name}`,
      o.required ? `${o.summary} (required)` : o.summary,
    ]),
    ["-h, --help", "show this help"],
  ];
  const width = Math.max(...[...argumentRows, ...optionRows].map(([left]) => left.length));
  const section = (title: string, rows: [string, string][]) =>
    rows.length ? ["", `${title}:`, ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`)] : [];
  return [
    `Usage: ${PROGRAM} ${synopsis}`,
    "",
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    ...section("Arguments", argumentRows),
    ...section("Options", optionRows),
  ].join("\n");
}

/** Parses `args` against the command's options; UsageError for anything it does not take. */
function parse(command: Command, args: string[]): { values: Values<Options>; argument?: string; help: boolean } {
  const options = Object.fromEntries(Object.entries(command.options).map(([name, o]) => [name, { type: o.type }]));
  // strict: false and a look at the tokens, for messages that name the command (parseArgs' own
  // strict errors describe its API rather than this program).
  const { values, positionals, tokens } = parseArgs({
    args,
    options: { ...options, help: { type: "boolean", short: "h" } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (values.help) return { values: {}, help: true };
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const option = command.options[token.name];
    if (!option) throw new UsageError(`Unknown option "${token.rawName}" for ${command.name}.`);
    if (option.type === "string" && token.value === undefined) throw new UsageError(`${token.rawName} needs a value.`);
    if (option.type === "boolean" && token.inlineValue) throw new UsageError(`${token.rawName} takes no value.`);
  }
  for (const [name, option] of Object.entries(command.options)) {
    if (option.required && values[name] === undefined) throw new UsageError(`${command.name} needs --${name} ${option.value ?? "VALUE"}.`);
  }
  if (command.argument) {
    if (positionals.length === 0) throw new UsageError(`${command.name} needs ${command.argument.name}.`);
    if (positionals.length > 1) throw new UsageError(`${command.name} takes one ${command.argument.name}, got ${positionals.length}.`);
  } else if (positionals.length > 0) {
    throw new UsageError(`${command.name} takes no arguments, got "${positionals[0]}".`);
  }
  const given = Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string | boolean] => entry[1] !== undefined));
  return { values: given, argument: positionals[0], help: false };
}

/** Runs one command line; resolves to the process's exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? console.error : console.log)(overview());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${overview()}`);
    return 2;
  }
  try {
    const { values, argument, help } = parse(command, args);
    if (help) {
      console.log(usage(command));
      return 0;
    }
    return (await command.run(values, argument)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage(command)}`);
      return 2;
    }
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
}
