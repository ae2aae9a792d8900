import { Form, Link } from "@remix-run/react";

interface HeaderProps {
  org: { id: number; name: string };
  user: { name: string; email: string };
  /** The user's accepted organisations. */
  organizations: readonly { id: number; name: string }[];
  /** Whether the user may create an organisation (the Add another organization link). */
  canCreate: boolean;
  search?: string;
}

/** The shell's header: customer search, organisation name, logout and the avatar menu. */
export function ShellHeader({ org, user, organizations, canCreate, search = "" }: HeaderProps) {
  return (
    <header className="flex flex-wrap items-center gap-4 border-b border-slate-200 bg-white px-4 py-3">
      <Link to={`/${org.id}`} className="text-lg font-semibold text-indigo-700">
        Mlango
      </Link>
      {/* On a phone the search takes a row of its own below the name and the buttons. */}
      <Form method="get" action={`/${org.id}/customers`} role="search" className="order-last w-full sm:order-none sm:w-auto sm:flex-1">
        <label htmlFor="shell-search" className="sr-only">
          Search customers
        </label>
        <input
          id="shell-search"
          type="search"
          name="search"
          defaultValue={search}
          placeholder="Search customers"
          maxLength={100}
          className="input w-full sm:max-w-sm"
        />
      </Form>
      {/* On a phone the name takes what is left of the first row (basis 0, so it never pushes the buttons down). */}
      <span
        className="min-w-0 flex-1 truncate text-right font-medium text-slate-700 sm:max-w-xs sm:flex-none sm:text-left"
        title={org.name}
      >
        {org.name}
      </span>
      <Link to="/logout" aria-label="Log out" title="Log out" className="rounded-md p-2 text-slate-500 hover:bg-slate-100">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2}>
          <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </Link>
      <AvatarMenu org={org} user={user} organizations={organizations} canCreate={canCreate} />
    </header>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join("");
}

/** A <details> disclosure, so the menu opens without JavaScript. */
function AvatarMenu({ org, user, organizations, canCreate }: Omit<HeaderProps, "search">) {
  return (
    <details className="relative">
      <summary
        aria-label="Account menu"
        className="flex h-9 w-9 cursor-pointer list-none items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white [&::-webkit-details-marker]:hidden"
      >
        {initials(user.name) || "?"}
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-72 rounded-lg border border-slate-200 bg-white py-2 text-sm shadow-lg">
        <div className="border-b border-slate-100 px-4 pb-2">
          <p className="font-medium text-slate-900">{user.name}</p>
          <p className="truncate text-slate-500">{user.email}</p>
          <Link to={`/${org.id}/profile`} className="link mt-1 inline-block">
            Manage your account
          </Link>
        </div>
        <ul aria-label="Your organizations" className="max-h-64 overflow-y-auto border-b border-slate-100 py-1">
          {organizations.map((o) => (
            <li key={o.id}>
              {o.id === org.id ? (
                <span aria-current="true" className="flex items-center justify-between px-4 py-1.5 font-medium">
                  {o.name}
                  <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-600">Current</span>
                </span>
              ) : (
                <Link to={`/${o.id}`} className="block px-4 py-1.5 hover:bg-slate-50">
                  {o.name}
                </Link>
              )}
            </li>
          ))}
        </ul>
        {canCreate ? (
          <Link to="/organizations/create" className="block px-4 py-1.5 hover:bg-slate-50">
            Add another organization
          </Link>
        ) : null}
        <Link to="/organizations" className="block px-4 py-1.5 hover:bg-slate-50">
          Manage your organizations
        </Link>
      </div>
    </details>
  );
}
