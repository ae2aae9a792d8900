/** A one-time message shown after an action (flashed in the session, read by the shell). */
export interface Toast {
  type: "success" | "error" | "info";
  message: string;
}
