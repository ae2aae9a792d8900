import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ProviderCard, type ProviderView } from "~/components/social-login/provider-card";
import { ActionFeedback } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { confirmationNeeded } from "~/lib/confirm";
import {
  PROVIDER_LABELS,
  removeSocialLoginSchema,
  SOCIAL_LOGIN_MESSAGES,
  SOCIAL_PROVIDERS,
  socialLoginSchema,
} from "~/lib/schemas/social-login";
import { requireOrg, requireOwner, type OrgContext } from "~/services/guard.server";
import { listSocialProviders, redirectUri, removeSocialProvider, saveSocialProvider } from "~/services/portal/social.server";
import { redirectWithToast } from "~/services/session.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Guest sign-in · Mlango" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  const configured = new Map((await listSocialProviders(ctx)).map((p) => [p.provider, p]));
  const providers: ProviderView[] = SOCIAL_PROVIDERS.map((provider) => {
    const row = configured.get(provider);
    return {
      provider,
      label: PROVIDER_LABELS[provider],
      redirectUri: redirectUri(provider),
      configured: row !== undefined,
      clientId: row?.clientId ?? "",
      authorizeUrl: row?.settings.authorize_url ?? "",
      tokenUrl: row?.settings.token_url ?? "",
      userinfoUrl: row?.settings.userinfo_url ?? "",
      updatedAt: row?.updatedAt ?? null,
    };
  });
  return json({ orgId: ctx.org.id, providers, canEdit: ctx.isOwner });
}

// Saving and removing belong to the organisation's administrator (im_admin), not to edit_networks:
// a provider registration is one credential for every network of the organisation, and whoever
// controls it decides where guests' names and e-mail addresses go. Organisation details are owner-only too.
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_settings");
  requireOwner(ctx);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "save":
      return save(request, ctx, form);
    case "remove":
      return remove(request, ctx, form);
    default:
      return json({ message: "Unknown action." }, { status: 400 });
  }
}

async function save(request: Request, ctx: OrgContext, form: FormData) {
  const submission = parseForm(form, { schema: socialLoginSchema });
  // The typed secret is never sent back into the page, even when the form is refused.
  const refuse = (fieldErrors?: Record<string, string[]>) =>
    json(
      { provider: submission.payload.provider, result: submission.reply({ fieldErrors, hideFields: ["client_secret"] }) },
      { status: 400 },
    );
  if (submission.status !== "success") return refuse();
  const { provider } = submission.value;
  const saved = await saveSocialProvider(ctx, submission.value);
  if (!saved.ok) return refuse(saved.errors);
  return redirectWithToast(request, `/${ctx.org.id}/organization/social-login`, `${PROVIDER_LABELS[provider]} sign-in saved.`);
}

async function remove(request: Request, ctx: OrgContext, form: FormData) {
  const submission = parseForm(form, { schema: removeSocialLoginSchema });
  if (submission.status !== "success") return json({ message: SOCIAL_LOGIN_MESSAGES.providerUnknown }, { status: 400 });
  const { provider } = submission.value;
  const label = PROVIDER_LABELS[provider];
  const ask = confirmationNeeded(
    form,
    "remove",
    `Are you sure you want to remove ${label} sign-in? Guests will no longer see “Continue with ${label}”.`,
    { provider },
  );
  if (ask) return json(ask);
  await removeSocialProvider(ctx, provider);
  return redirectWithToast(request, `/${ctx.org.id}/organization/social-login`, `${label} sign-in removed.`);
}

export default function SocialLogin() {
  const { orgId, providers, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "result" in actionData ? actionData : null;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold">Guest sign-in</h2>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          Guests on your networks&apos; connect page can sign in with the providers turned on here. Register your app at each provider with
          the redirect URI shown, then enter the client ID and secret it gives you.
        </p>
        {canEdit ? null : (
          <p className="mt-2 text-sm text-slate-600">Only the organization&apos;s administrator can change guest sign-in.</p>
        )}
      </div>
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/organization/social-login`} />
      {providers.map((view) => (
        <ProviderCard
          key={`${view.provider}-${view.updatedAt ?? "new"}`}
          view={view}
          canEdit={canEdit}
          lastResult={refused?.provider === view.provider ? refused.result : null}
        />
      ))}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
