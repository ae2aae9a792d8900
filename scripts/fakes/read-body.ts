// What both fakes need from a request: its body, bounded (a fake must not be a memory sink either).
import type { IncomingMessage } from "node:http";

/** Bodies the fakes accept, like the services they stand in for. */
export const BODY_LIMIT = 64 * 1024;

/** The request body, or null when it is larger than BODY_LIMIT (the rest is drained, not kept). */
export function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > BODY_LIMIT ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
