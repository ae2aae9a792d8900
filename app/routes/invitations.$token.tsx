import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors, SubmitButton } from "~/components/ui/field";
import { withRedirectTo } from "~/lib/schemas/accounts";
import { getOptionalUser, requireUser } from "~/services/guard.server";
import { acceptInvitation, declineInvitation, getInvitation, previewInvitation } from "~/services/invitations.server";
import { commitSession, getSession, redirectWithToast } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Invitation | Mlango" }];

// The confirmation link of an invitation email. A visitor without a session first sees what the
// invitation is (organisation, role, who invited), then signs in or signs up and
// comes back here (redirectTo) to answer. Nothing changes on GET.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  const user = await getOptionalUser(request);
  const invitation = user ? await getInvitation(token, user) : await previewInvitation(token);
  const here = new URL(request.url).pathname;
  return json({
    organizationName: invitation.organizationName,
    roleName: invitation.roleName,
    inviterName: invitation.inviterName,
    signedOut: user
      ? null
      : {
          invitedEmail: invitation.invitedEmail,
          loginHref: withRedirectTo("/login", here),
          registerHref: withRedirectTo("/register", here),
        },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const token = params.token ?? "";
  const intent = (await request.formData()).get("intent");
  if (intent === "accept") {
    const result = await acceptInvitation(token, user);
    if (!result.ok) return json({ message: result.formErrors?.[0] ?? "The invitation could not be accepted." }, { status: 409 });
    const session = await getSession(request);
    session.set("orgId", result.organizationId);
    session.flash("toast", { type: "success", message: `Welcome to ${result.organizationName}.` });
    return redirect(`/${result.organizationId}`, { headers: { "Set-Cookie": await commitSession(session) } });
  }
  if (intent === "decline") {
    const { organizationName } = await declineInvitation(token, user);
    return redirectWithToast(request, "/", { type: "info", message: `You declined the invitation to ${organizationName}.` });
  }
  return json({ message: "Unknown action." }, { status: 400 });
}

export default function InvitationPage() {
  const { organizationName, roleName, inviterName, signedOut } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <main className="mx-auto my-16 max-w-lg">
      <section className="card text-center">
        <h1 className="text-xl font-semibold">Invitation</h1>
        <p className="mt-3 text-slate-700">
          <strong>{inviterName ?? "An administrator"}</strong> invited you to join <strong>{organizationName}</strong>
          {roleName ? (
            <>
              {" "}
              as <strong>{roleName}</strong>
            </>
          ) : null}
          .
        </p>
        {signedOut ? (
          <>
            <p className="mt-3 text-sm text-slate-600">
              To accept or decline, sign in to your Mlango account, or create one
              {signedOut.invitedEmail ? (
                <>
                  {" "}
                  (the invitation was sent to <strong>{signedOut.invitedEmail}</strong>)
                </>
              ) : null}
              ; you come back to this page afterwards.
            </p>
            <div className="mt-6 flex justify-center gap-3">
              <Link to={signedOut.loginHref} className="btn-primary">
                Sign in to answer
              </Link>
              <Link to={signedOut.registerHref} className="btn-secondary">
                Create an account
              </Link>
            </div>
          </>
        ) : (
          <>
            <div className="mt-4 text-left">{actionData ? <FormErrors errors={[actionData.message]} /> : null}</div>
            <Form method="post" className="mt-6 flex justify-center gap-3">
              <SubmitButton name="intent" value="accept" pendingText="Joining…">
                Accept
              </SubmitButton>
              <SubmitButton name="intent" value="decline" className="btn-secondary" pendingText="Declining…">
                Decline
              </SubmitButton>
            </Form>
            <p className="mt-6 text-sm">
              <Link to="/" className="link">
                Go to my organizations
              </Link>
            </p>
          </>
        )}
      </section>
    </main>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
