import { defineCommand } from "../command";
import demo from "./demo";

// The older name of demo (npm run db:seed).
export default defineCommand({ ...demo, name: "seed", summary: "the same as demo" });
