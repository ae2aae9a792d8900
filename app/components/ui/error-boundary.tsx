import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";

export const NOT_FOUND_MESSAGE = "Oops. The page you were looking for doesn't exist.";

/** Renders 404 with the spec's text, 403 with the refusal message, anything else without details. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ErrorPanel status={404} message={NOT_FOUND_MESSAGE}>
        <Link to="/" className="btn-primary">
          Go Home
        </Link>
      </ErrorPanel>
    );
  }
  if (isRouteErrorResponse(error) && error.status < 500) {
    const message = (error.data as { message?: string } | null)?.message ?? error.statusText;
    return (
      <ErrorPanel status={error.status} message={message}>
        <Link to="/" className="btn-secondary">
          Go Home
        </Link>
      </ErrorPanel>
    );
  }
  return <ErrorPanel status={500} message="Something went wrong on our side. Please try again." />;
}

function ErrorPanel({ status, message, children }: { status: number; message: string; children?: React.ReactNode }) {
  return (
    <div role="alert" className="mx-auto my-16 max-w-lg text-center">
      <p className="text-5xl font-bold text-slate-300">{status}</p>
      <h1 className="mt-4 text-xl font-semibold text-slate-800">{message}</h1>
      <div className="mt-6">{children}</div>
    </div>
  );
}
