import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { signOutAndRedirect } from "~/services/auth.server";

// /logout (GET or POST) ends the visitor's own sign-in and goes to /login. GET is the one state
// change allowed on a GET (spec: a logout link); it can only sign the visitor out.
export function loader({ request }: LoaderFunctionArgs) {
  return signOutAndRedirect(request);
}

export function action({ request }: ActionFunctionArgs) {
  return signOutAndRedirect(request);
}
