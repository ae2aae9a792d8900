interface Counts {
  venuesCount: number;
  accessPointsCount: number;
  customersCount: number;
  devicesCount: number;
  connectionsCount: number;
  onlineConnectionsCount: number;
}

const CARDS: { key: keyof Counts; label: string }[] = [
  { key: "venuesCount", label: "Networks" },
  { key: "accessPointsCount", label: "Access points" },
  { key: "customersCount", label: "Customers" },
  { key: "devicesCount", label: "Devices" },
  { key: "connectionsCount", label: "Connections" },
  { key: "onlineConnectionsCount", label: "Online now" },
];

const format = new Intl.NumberFormat("en");

/** The organisation's counts as a row of cards. */
export function CountCards({ counts, className = "" }: { counts: Counts; className?: string }) {
  return (
    <dl className={`grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-6 ${className}`}>
      {CARDS.map(({ key, label }) => (
        <div key={key} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-500">{label}</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900">{format.format(counts[key])}</dd>
        </div>
      ))}
    </dl>
  );
}
