import { Pagination } from "~/components/ui/pagination";
import { DashletCard } from "./dashlet-card";
import type { DashletProps } from "~/lib/dashlet-data";
import { Time } from "~/components/ui/time";

/** Access point status: how many are online (seen or used by a guest in the last N minutes, or with a guest online) and a page of them. */
export function AccessPointStatusDashlet({ data }: DashletProps<"access_point_status">) {
  return (
    <DashletCard title="Access point status">
      {data.total === 0 ? (
        <p className="text-sm text-slate-500">No access points yet.</p>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            <span className="text-lg font-semibold text-emerald-700">{data.online}</span> online,{" "}
            <span className="text-lg font-semibold text-slate-700">{data.total - data.online}</span> offline
            <span className="block text-xs text-slate-500">
              Online: seen or used by a guest in the last {data.windowMinutes} minutes, or a guest is online through it.
            </span>
          </p>
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {data.rows.map((ap) => (
              <li key={ap.id} className="flex items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="block truncate font-medium">{ap.name}</span>
                  <span className="block truncate text-xs text-slate-500">
                    {ap.venueName} · {ap.macAddress}
                    {ap.lastSeenAt ? (
                      <>
                        {" "}
                        · last seen <Time ms={ap.lastSeenAt} />
                      </>
                    ) : null}
                  </span>
                </span>
                <span
                  className={
                    ap.online ? "rounded bg-emerald-50 px-2 py-0.5 text-emerald-700" : "rounded bg-slate-100 px-2 py-0.5 text-slate-600"
                  }
                >
                  {ap.online ? "Online" : "Offline"}
                </span>
              </li>
            ))}
          </ul>
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} prefix="aps_" />
        </>
      )}
    </DashletCard>
  );
}
