// Starts FreeRADIUS (Debian's freeradius 3.2 with freeradius-rest) with the repository's site
// config (radius/radiusd.conf) for development, tests, the demo, the simulator and benchmarks.
// Production runs the same file under its own service manager (docs/radius.md).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface FreeRadiusOptions {
  /** Where Mlango answers, e.g. http://127.0.0.1:3000 */
  mlangoUrl: string;
  apiSecret: string;
  authPort: number;
  acctPort: number;
  listen?: string;
  /** How long FreeRADIUS keeps a NAS's secret before asking Mlango again (seconds). */
  clientLifetime?: number;
  /** Log every request (slow: for debugging only). */
  debug?: boolean;
}

export interface FreeRadius {
  process: ChildProcess;
  dir: string;
  stop(): Promise<void>;
  output(): string;
}

export const FREERADIUS_BIN = process.env.FREERADIUS_BIN ?? "/usr/sbin/freeradius";

export function freeradiusInstalled(): boolean {
  return fs.existsSync(FREERADIUS_BIN);
}

/** The config with its @…@ values filled in, in a directory of its own. */
export function writeConfig(options: FreeRadiusOptions): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mlango-radius-"));
  fs.mkdirSync(path.join(dir, "run"));
  const template = fs.readFileSync(path.resolve(import.meta.dirname, "../../radius/radiusd.conf"), "utf8");
  const values: Record<string, string> = {
    CONF_DIR: dir,
    RUN_DIR: path.join(dir, "run"),
    MLANGO_URL: options.mlangoUrl.replace(/\/+$/, ""),
    API_SECRET: encodeURIComponent(options.apiSecret),
    LISTEN_ADDR: options.listen ?? "127.0.0.1",
    AUTH_PORT: String(options.authPort),
    ACCT_PORT: String(options.acctPort),
    CLIENT_LIFETIME: String(options.clientLifetime ?? 60),
  };
  const config = template.replace(/@([A-Z_]+)@/g, (whole, name: string) => values[name] ?? whole);
  fs.writeFileSync(path.join(dir, "radiusd.conf"), config, { mode: 0o600 });
  return dir;
}

export async function startFreeRadius(options: FreeRadiusOptions): Promise<FreeRadius> {
  if (!freeradiusInstalled())
    throw new Error(`${FREERADIUS_BIN} is missing: install Debian's freeradius, freeradius-rest and freeradius-utils.`);
  const dir = writeConfig(options);
  const child = spawn(FREERADIUS_BIN, [options.debug ? "-X" : "-f", "-l", "stdout", "-d", dir], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`FreeRADIUS did not start within 15 s:\n${output}`)), 15_000);
    const check = () => {
      if (/Ready to process requests/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`FreeRADIUS exited with ${code}:\n${output}`));
    });
  });
  return {
    process: child,
    dir,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
