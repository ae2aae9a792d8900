// Placeholder: implemented by the accounting work (issue [portal] §5).
import type { PortalNetwork } from "./network.server";

export type AccountingOutcome = { ok: true; data: { accepted: number; unknown: number } } | { ok: false; message: string };

export async function recordAccounting(_network: PortalNetwork, _body: unknown): Promise<AccountingOutcome> {
  return { ok: false, message: "Accounting is not available yet." };
}

export async function revocationsSince(_network: PortalNetwork, _after: number): Promise<{ revocations: unknown[]; next_after: number }> {
  return { revocations: [], next_after: 0 };
}
