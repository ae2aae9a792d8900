// The operations command line: `npm run mlango -- <command> [options]` (main.ts runs it).
// Every command is a file in commands/; this file lists them, parses the arguments against the
// command's options (args.ts) and prints the usage. Exit codes: 0 done, 1 the command
// failed, 2 the command line was wrong (an unknown command or option, a missing or bad value).
import { parseCommandLine, usage, UsageError } from "./args";
import type { Command } from "./command";
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

function overview(): string {
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
    const { values, argument, help } = parseCommandLine(command, args);
    if (help) {
      console.log(usage(command, `${PROGRAM} ${command.name}`));
      return 0;
    }
    return (await command.run(values, argument)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage(command, `${PROGRAM} ${command.name}`)}`);
      return 2;
    }
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
}
