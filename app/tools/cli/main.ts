// `npm run mlango -- <command> [options]` (or `npx tsx app/tools/cli/main.ts …`): see cli.ts.
import { closeDatabase } from "~/db/db.server";
import { runCli } from "./cli";

try {
  process.exitCode = await runCli(process.argv.slice(2));
} finally {
  await closeDatabase();
}
