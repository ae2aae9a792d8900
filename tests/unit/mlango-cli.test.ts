// The operations command line (`npm run mlango -- …`, app/tools/cli): the usage it prints and the
// command lines it refuses (exit code 2) before any command touches the database.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COMMANDS, runCli } from "~/tools/cli/cli";

let out = "";
let err = "";
beforeEach(() => {
  out = err = "";
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void (out += args.join(" ") + "\n"));
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void (err += args.join(" ") + "\n"));
});
afterEach(() => {
  vi.restoreAllMocks();
  // Nothing here may open a database: every refusal comes before the command runs.
  expect((globalThis as { __mlangoDatabase?: unknown }).__mlangoDatabase).toBeUndefined();
});

describe("npm run mlango", () => {
  it("lists every command with its summary on --help", async () => {
    expect(await runCli(["--help"])).toBe(0);
    for (const name of [
      "migrate",
      "seed",
      "demo",
      "generate",
      "reports:run",
      "jobs:work",
      "jobs:list",
      "jobs:retry",
      "portal:end-idle",
      "rollups:rebuild",
    ]) {
      const command = COMMANDS.find((c) => c.name === name)!;
      expect(out).toContain(`  ${name.padEnd(15)}  ${command.summary}`);
    }
  });

  it("shows a command's usage and options on <command> --help", async () => {
    expect(await runCli(["generate", "--help"])).toBe(0);
    expect(out).toContain("Usage: npm run mlango -- generate --connections N [options]");
    expect(out).toMatch(/--access-points N +access points/);
    expect(out).toMatch(/-h, --help +show this help/);

    out = "";
    expect(await runCli(["jobs:retry", "-h"])).toBe(0);
    expect(out).toContain("Usage: npm run mlango -- jobs:retry ID");
    for (const command of COMMANDS) expect(await runCli([command.name, "--help"])).toBe(0);
  });

  it("refuses no command or an unknown one with the list of commands", async () => {
    expect(await runCli([])).toBe(2);
    expect(err).toContain("Commands:");
    err = "";
    expect(await runCli(["migrat"])).toBe(2);
    expect(err).toMatch(/^Unknown command "migrat"\.\n\nUsage: npm run mlango -- <command>/);
  });

  it("refuses an unknown option, naming it, with the command's usage", async () => {
    expect(await runCli(["jobs:list", "--faild"])).toBe(2);
    expect(err).toMatch(/^Unknown option "--faild" for jobs:list\.\n\nUsage: npm run mlango -- jobs:list \[options\]/);
    err = "";
    expect(await runCli(["migrate", "-x"])).toBe(2);
    expect(err).toContain('Unknown option "-x" for migrate.');
  });

  it("refuses missing and malformed values and stray arguments", async () => {
    const refusals: [string[], string][] = [
      [["generate"], "generate needs --connections N."],
      [["generate", "--connections"], "--connections needs a value."],
      [["generate", "--connections", "many"], '--connections must be a whole number of at least 0, got "many".'],
      [["generate", "--connections", "100", "--venues", "5", "--access-points", "2"], "accessPoints must be at least venues"],
      [["jobs:list", "--failed=yes"], "--failed takes no value."],
      [["jobs:retry"], "jobs:retry needs ID."],
      [["jobs:retry", "0"], 'ID must be a whole number of at least 1, got "0".'],
      [["jobs:retry", "1", "2"], "jobs:retry takes one ID, got 2."],
      [["rollups:rebuild", "--organization", "first"], '--organization must be a whole number of at least 1, got "first".'],
      [["migrate", "now"], 'migrate takes no arguments, got "now".'],
    ];
    for (const [argv, message] of refusals) {
      err = "";
      expect(await runCli(argv), argv.join(" ")).toBe(2);
      expect(err).toContain(message);
      expect(err).toContain(`Usage: npm run mlango -- ${argv[0]}`);
    }
  });
});
