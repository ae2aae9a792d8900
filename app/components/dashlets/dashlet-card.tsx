import type { ReactNode } from "react";

/** The card every dashlet sits in: a heading, optional links (export, see all), the body. */
export function DashletCard({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="card min-w-0 p-4" aria-label={title}>
      <header className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-800">{title}</h2>
        {actions ? <div className="flex flex-wrap gap-3 text-sm">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

/** A download link to a CSV export (a plain link: the server answers with the file). */
export function ExportLink({ href, label = "Export CSV" }: { href: string; label?: string }) {
  return (
    <a href={href} className="text-indigo-700 hover:underline">
      {label}
    </a>
  );
}
