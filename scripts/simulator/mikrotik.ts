// The simulator's MikroTik mode: plays the phones and the router's side of a
// RADIUS hotspot against a running Mlango and the FreeRADIUS in front of it, with FreeRADIUS's own
// radclient for every RADIUS packet (from the router's address: Packet-Src-IP-Address).
//   1. the phone posts what login.html posts to the network's MikroTik entry, reads the connect page
//      and signs up (or clicks through), and follows the grant to the auto-submitting login page;
//   2. the router sends the page's credentials in an Access-Request (PAP, or CHAP for --chap-share of
//      the guests) and checks the Access-Accept carries Session-Timeout and Acct-Interim-Interval;
//   3. the router sends Accounting Start, --interims Interim-Updates with growing octets and Stop
//      (unless --stay), each of which must be answered.
// The router's packets carry what the RouterOS manual lists (RADIUS → Supported RADIUS Attributes →
// Access-Request, Accounting-Request): Calling-Station-Id is the client's MAC in capital letters with
// colons, Framed-IP-Address the client's address, one Acct-Session-Id per session, NAS-Identifier
// the router's identity, Called-Station-Id the hotspot server's name.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import { personMaker, randomDevice } from "./guest";
import { fmt, percentile, pool, table } from "./report";

export interface MikrotikRun {
  url: string;
  entryPath: string;
  accessPointMacs: string[];
  guests: number;
  concurrency: number;
  interims: number;
  stay: boolean;
  signup: boolean;
  chapShare: number;
  radius: { host: string; authPort: number; acctPort: number };
  nas: { address: string; secret: string };
}

const STEPS = ["entry", "connect page", "grant page", "Access-Request", "accounting"] as const;
type Step = (typeof STEPS)[number];

interface Outcome {
  ms: Partial<Record<Step, number>>;
  failed?: { step: Step; message: string };
}

/** One packet through radclient; answers the reply's code and attributes. */
export function radclient(
  server: string,
  kind: "auth" | "acct",
  secret: string,
  attributes: Record<string, string | number>,
): Promise<{ code: string; attributes: Record<string, string> }> {
  const input = Object.entries(attributes)
    .map(([name, value]) => `${name} = ${typeof value === "number" ? value : JSON.stringify(value)}`)
    .join("\n");
  return new Promise((resolve, reject) => {
    const child = execFile("radclient", ["-x", "-r", "3", "-t", "2", server, kind, secret], { timeout: 15_000 }, (error, stdout) => {
      const code = /Received (\S+)/.exec(stdout)?.[1];
      if (!code) return reject(new Error(error ? `radclient: ${error.message.split("\n")[0]}` : "radclient: no answer"));
      const answer = stdout.slice(stdout.indexOf("Received"));
      const replied = Object.fromEntries(
        [...answer.matchAll(/^\s+([A-Za-z0-9-]+) = (.*)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^"|"$/g, "")]),
      );
      resolve({ code, attributes: replied });
    });
    child.stdin!.end(input);
  });
}

const hidden = (page: string) =>
  Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g)].map((m) => [
      m[1]!,
      m[2]!
        .replace(/&amp;/g, "&")
        .replace(/&quot;/g, '"')
        .replace(/&#(39|x27);/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">"),
    ]),
  );

export async function simulateMikrotik(run: MikrotikRun, log: (line: string) => void): Promise<number> {
  const person = personMaker();
  const auth = `${run.radius.host}:${run.radius.authPort}`;
  const acct = `${run.radius.host}:${run.radius.acctPort}`;
  const started = performance.now();
  const outcomes = await pool(
    Array.from({ length: run.guests }, (_, i) => i),
    run.concurrency,
    async (): Promise<Outcome> => {
      const outcome: Outcome = { ms: {} };
      let step: Step = "entry";
      const timed = async <T>(s: Step, work: () => Promise<T>): Promise<T> => {
        step = s;
        const t = performance.now();
        const value = await work();
        outcome.ms[s] = performance.now() - t;
        return value;
      };
      try {
        const device = randomDevice(Math.max(1, run.accessPointMacs.length));
        const chap = Math.random() < run.chapShare;
        // A real router's CHAP id is any byte; this one is below 32 because radclient takes a 17-byte
        // CHAP-Password whose bytes are all 32 or more for a cleartext password and encodes it again
        // with an id of its own (radclient.c, already_hex) — one login in ten would be refused.
        const chapId = Buffer.from([crypto.randomInt(0, 32)]);
        const challenge = crypto.randomBytes(16);
        const octal = (b: Buffer) => [...b].map((x) => "\\" + x.toString(8).padStart(3, "0")).join("");
        const form = new URLSearchParams({
          mac: device.clientMac.toUpperCase(),
          ip: device.clientIp,
          "link-login-only": `http://${run.nas.address}/login`,
          "link-orig": "",
          identity: run.accessPointMacs[device.apIndex] ?? "sim-router",
          "chap-id": chap ? octal(chapId) : "",
          "chap-challenge": chap ? octal(challenge) : "",
        });
        const token = await timed("entry", async () => {
          const r = await fetch(`${run.url}${run.entryPath}`, {
            method: "POST",
            redirect: "manual",
            headers: { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": device.userAgent },
            body: form,
          });
          const location = r.headers.get("location") ?? "";
          if (r.status !== 303 || !location.startsWith("/connect?token=")) throw new Error(`entry answered ${r.status} ${location}`);
          return location.slice("/connect?token=".length);
        });
        const grant = await timed("connect page", async () => {
          const page = await (await fetch(`${run.url}/connect?token=${token}`)).text();
          if (!page.includes('action="/connect')) throw new Error("the connect page has no form");
          const p = person();
          const body = new URLSearchParams({
            token,
            ...(run.signup ? { first_name: p.firstName, last_name: p.lastName, email_address: p.email, phone_number: p.phone } : {}),
          });
          const r = await fetch(`${run.url}/connect`, {
            method: "POST",
            redirect: "manual",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body,
          });
          const location = r.headers.get("location") ?? "";
          if (r.status !== 303 || !location.includes(`/login?token=`))
            throw new Error(`connect answered ${r.status} ${location.slice(0, 80)}`);
          return location;
        });
        const fields = await timed("grant page", async () => {
          const page = await (await fetch(new URL(grant, run.url))).text();
          const f = hidden(page);
          if (!f.username || !f.password) throw new Error("the grant page carries no credentials");
          if (!page.includes(`action="http://${run.nas.address}/login"`))
            throw new Error("the grant page does not post to link-login-only");
          return f;
        });
        const session = crypto.randomBytes(4).toString("hex");
        const routerOsMac = device.clientMac.toUpperCase().replace(/-/g, ":");
        const reply = await timed("Access-Request", async () => {
          const attributes: Record<string, string | number> = {
            "Packet-Src-IP-Address": run.nas.address,
            "User-Name": fields.username!,
            "NAS-IP-Address": run.nas.address,
            "NAS-Identifier": "sim-router",
            "Calling-Station-Id": routerOsMac,
            "Called-Station-Id": "hotspot1",
            "Acct-Session-Id": session,
            "Framed-IP-Address": device.clientIp,
          };
          if (chap) {
            // What the router sends for an http-chap login: CHAP-Password = id + the page's md5 response.
            attributes["CHAP-Password"] = `0x${chapId.toString("hex")}${fields.password}`;
            attributes["CHAP-Challenge"] = `0x${challenge.toString("hex")}`;
          } else {
            attributes["User-Password"] = fields.password!;
          }
          const answer = await radclient(auth, "auth", run.nas.secret, attributes);
          if (answer.code !== "Access-Accept")
            throw new Error(`${answer.code}${answer.attributes["Reply-Message"] ? `: ${answer.attributes["Reply-Message"]}` : ""}`);
          if (!(Number(answer.attributes["Session-Timeout"]) > 0)) throw new Error("the Access-Accept has no Session-Timeout");
          return answer;
        });
        await timed("accounting", async () => {
          const base = {
            "Packet-Src-IP-Address": run.nas.address,
            "User-Name": fields.username!,
            "Acct-Session-Id": session,
            "NAS-IP-Address": run.nas.address,
            "NAS-Identifier": "sim-router",
            "Calling-Station-Id": routerOsMac,
            "Called-Station-Id": "hotspot1",
            "Framed-IP-Address": device.clientIp,
          };
          const send = async (status: string, octets: number, seconds: number) => {
            const answer = await radclient(acct, "acct", run.nas.secret, {
              ...base,
              "Acct-Status-Type": status,
              "Acct-Input-Octets": octets,
              "Acct-Output-Octets": octets * 5,
              "Acct-Session-Time": seconds,
              ...(status === "Stop" ? { "Acct-Terminate-Cause": "User-Request" } : {}),
            });
            if (answer.code !== "Accounting-Response") throw new Error(`${status}: ${answer.code}`);
          };
          await send("Start", 0, 0);
          let octets = 0;
          for (let i = 1; i <= run.interims; i++)
            await send(
              "Interim-Update",
              (octets += 100_000 + crypto.randomInt(0, 2_000_000)),
              i * Number(reply.attributes["Acct-Interim-Interval"] ?? 60),
            );
          if (!run.stay) await send("Stop", octets + 1000, (run.interims + 1) * 60);
        });
      } catch (error) {
        outcome.failed = { step, message: error instanceof Error ? error.message : String(error) };
      }
      return outcome;
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const rows = [["step", "ok", "failed", "p50 ms", "p95 ms"]];
  for (const s of STEPS) {
    const times = outcomes.flatMap((o) => (o.ms[s] === undefined ? [] : [o.ms[s]!]));
    rows.push([
      s,
      fmt(times.length),
      fmt(outcomes.filter((o) => o.failed?.step === s).length),
      fmt(percentile(times, 0.5), 1),
      fmt(percentile(times, 0.95), 1),
    ]);
  }
  const failed = outcomes.filter((o) => o.failed);
  log(
    `\nmikrotik: ${run.guests} guests against ${run.url} through FreeRADIUS at ${run.radius.host} (auth ${run.radius.authPort}, acct ${run.radius.acctPort}), ${fmt(run.guests / seconds, 1)} guests/s`,
  );
  log(table(rows));
  const messages = new Map<string, number>();
  for (const o of failed)
    messages.set(`${o.failed!.step}: ${o.failed!.message}`, (messages.get(`${o.failed!.step}: ${o.failed!.message}`) ?? 0) + 1);
  for (const [message, count] of [...messages].sort((a, b) => b[1] - a[1]).slice(0, 10)) log(`  ${count}× ${message}`);
  log(
    failed.length
      ? `\n${failed.length} of ${run.guests} guests failed.`
      : `\nAll ${run.guests} guests logged in through RADIUS${run.stay ? " and stay online" : ", were accounted and left"}.`,
  );
  return failed.length;
}
