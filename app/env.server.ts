// The environment, validated once per process (app/config.server.mjs: plain JavaScript, so that
// server.mjs and server/*.mjs, which Node runs without a build, read it too).
import { getEnv, parseEnv } from "./config.server.mjs";

export { getEnv, parseEnv };

export type Env = ReturnType<typeof parseEnv>;
