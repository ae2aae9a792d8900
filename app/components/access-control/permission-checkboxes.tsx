import { PERMISSIONS, type Permission } from "~/lib/permissions";

type Catalogue = (typeof PERMISSIONS)[number];

// The catalogue grouped by area of the product, in menu order; anything new lands in "Other".
const GROUPS: { title: string; matches: (identifier: string) => boolean }[] = [
  { title: "Networks and access points", matches: (p) => /network|_ap$/.test(p) },
  { title: "Customers and connections", matches: (p) => /clients|connections/.test(p) },
  { title: "Splash pages", matches: (p) => p.includes("splash_pages") },
  { title: "Groups and broadcasts", matches: (p) => /groups|broadcasts/.test(p) },
  { title: "Fair usage and prepaid", matches: (p) => /service_plan|bandwidth_policy|subscriptions|vouchers/.test(p) },
  { title: "Organization and access control", matches: (p) => /settings|organizations|administrators|roles/.test(p) },
];

export function groupedPermissions(): { title: string; permissions: Catalogue[] }[] {
  const left = new Set<Catalogue>(PERMISSIONS);
  const groups = GROUPS.map((g) => {
    const permissions = PERMISSIONS.filter((p) => left.has(p) && g.matches(p.identifier));
    permissions.forEach((p) => left.delete(p));
    return { title: g.title, permissions };
  });
  if (left.size) groups.push({ title: "Other", permissions: [...left] });
  return groups.filter((g) => g.permissions.length > 0);
}

/**
 * The permission catalogue as checkboxes named `permissions`, grouped by area. A plain form field,
 * so the whole set is posted and saved without JavaScript.
 */
export function PermissionCheckboxes({
  checked,
  disabled = false,
  errors,
  idPrefix = "permission",
}: {
  checked: readonly Permission[] | readonly string[];
  disabled?: boolean;
  errors?: string[] | null;
  idPrefix?: string;
}) {
  const held = new Set<string>(checked);
  return (
    <fieldset disabled={disabled} aria-describedby={errors?.length ? `${idPrefix}-error` : undefined}>
      <legend className="label">Permissions</legend>
      {errors?.length ? (
        <p id={`${idPrefix}-error`} className="field-error mb-2">
          {errors[0]}
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        {groupedPermissions().map((group) => (
          <div key={group.title} className="rounded-md border border-slate-200 p-3">
            <h3 className="mb-2 text-sm font-semibold text-slate-700">{group.title}</h3>
            <ul className="space-y-1">
              {group.permissions.map((p) => (
                <li key={p.identifier}>
                  <label className="flex items-start gap-2 text-sm" htmlFor={`${idPrefix}-${p.identifier}`}>
                    <input
                      id={`${idPrefix}-${p.identifier}`}
                      type="checkbox"
                      name="permissions"
                      value={p.identifier}
                      defaultChecked={held.has(p.identifier)}
                      className="mt-0.5"
                    />
                    <span>
                      <span className="font-medium">{p.name}</span>
                      <span className="block text-xs text-slate-500">{p.description}</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
