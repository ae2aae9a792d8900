// A command of the operations command line (`npm run mlango -- <command> [options]`): its name, a
// one-line summary, its options and what it does. cli.ts parses the arguments against `options`
// (args.ts) before `run` is called, and prints the usage from the same description.
import type { Options, Synopsis, Values } from "./args";

export { UsageError, wholeNumber } from "./args";

export interface Command<O extends Options = Options> extends Synopsis<O> {
  /** Resolves to the exit code (0 when nothing is returned). Throws UsageError for bad input. */
  run(values: Values<O>, argument: string | undefined): Promise<number | void>;
}

export function defineCommand<O extends Options>(command: Command<O>): Command<O> {
  return command;
}
