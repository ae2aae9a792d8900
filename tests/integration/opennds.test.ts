// openNDS as openNDS 9.10 behaves, over real HTTP against the built server, on SQLite and
// PostgreSQL: `fas` arrives as unescaped base64 (a `+` in it must stay a `+`), and the grant is
// opennds_auth with tok = sha256(hid + faskey).
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/db.server";
import { hashToken } from "~/services/crypto.server";
import { encryptSecret } from "~/services/secrets.server";
import { makeOrg } from "../fixtures";
import { startBuiltServer, type TestServer } from "../fixtures/http-server";
import { openndsQuery } from "../fixtures/opennds";
import { enter, makeNetwork, postForm, randomMac } from "../fixtures/portal";

let server: TestServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => {
  await server?.close();
});

const FASKEY = "kahawa-faskey-0123456789";

async function world(fields = {}) {
  const { org, owner } = await makeOrg(`openNDS ${Math.random()}`);
  const network = await makeNetwork(org.id, { opennds_faskey: encryptSecret(FASKEY), ...fields });
  return { org, owner, ...network };
}

describe("openNDS entry", () => {
  it("lets in a guest whose original URL holds ~ (a + in fas, sent unescaped) and grants with sha256(hid + faskey)", async () => {
    const { venue } = await world();
    const origin = "http://example.com/~amina/?q=~~~";
    const clientMac = randomMac();
    const query = openndsQuery(origin, { hid: "9c0ffee1", clientMac });
    expect(query).toContain("+");
    const entry = await enter(server.origin, `/hotspot/opennds/${venue.portal_key}?${query}`);
    expect(entry.status).toBe(302);
    expect(entry.token).not.toBeNull();
    const connection = await db
      .selectFrom("connections")
      .selectAll()
      .where("token", "=", hashToken(entry.token!))
      .executeTakeFirstOrThrow();
    expect(connection).toMatchObject({ gateway: "opennds", client_ip: "198.51.100.20", ssid: "Kahawa Guest" });

    const granted = await postForm(server.origin, "/connect", {
      token: entry.token!,
      mode: "SIGNUP",
      first_name: "Amina",
      last_name: "Otieno",
      email_address: "amina@example.com",
      phone_number: "0712 345 678",
    });
    expect(granted.status).toBe(303);
    const grant = new URL(granted.headers.get("location")!);
    expect(`${grant.origin}${grant.pathname}`).toBe("http://198.51.100.1:2050/opennds_auth/");
    expect(grant.searchParams.get("tok")).toBe(crypto.createHash("sha256").update(`9c0ffee1${FASKEY}`).digest("hex"));
    expect(grant.searchParams.get("redir")).toBe(origin);
  });

  it("answers a fas that is not base64 with a 400 page, not a 500", async () => {
    const { venue } = await world();
    for (const fas of ["%25%25", "not%20base64!", Buffer.from("hello").toString("base64")]) {
      const answer = await fetch(`${server.origin}/hotspot/opennds/${venue.portal_key}?fas=${fas}`, { redirect: "manual" });
      expect(answer.status, fas).toBe(400);
      expect(await answer.text()).toContain("The router did not send a readable fas parameter.");
    }
  });
});
