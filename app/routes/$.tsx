import { GeneralErrorBoundary } from "~/components/ui/error-boundary";

// Any path no other route matches: the not-found page.
export function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}

export const ErrorBoundary = GeneralErrorBoundary;
