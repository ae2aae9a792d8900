import fs from "node:fs";
import path from "node:path";
import { E2E_ENV } from "../../playwright.config";

/** The newest mail the server wrote to the outbox for this address (waits for it briefly). */
export async function latestMailTo(address: string, timeoutMs = 5_000): Promise<{ subject: string; text: string; link?: string }> {
  const dir = path.join(E2E_ENV.DATA_DIR, "outbox");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .sort()
          .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")))
          .filter((m) => m.to === address)
      : [];
    if (mails.length) return mails[mails.length - 1];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${address}`);
}
