import { Outlet } from "@remix-run/react";

// The guest pages (login, sign up, forgot and reset password): a centred card under the product name.
export default function AuthLayout() {
  return (
    <main className="flex min-h-full flex-col items-center justify-center px-4 py-12">
      <p className="mb-6 text-3xl font-bold tracking-tight text-indigo-700">Mlango</p>
      <div className="card w-full max-w-md">
        <Outlet />
      </div>
    </main>
  );
}
