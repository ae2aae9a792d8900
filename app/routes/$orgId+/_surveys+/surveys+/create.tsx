import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { SurveyForm } from "~/components/surveys/survey-form";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { todayIso } from "~/lib/date-range";
import { NEW_QUESTION, SURVEY_MESSAGES, surveySchema } from "~/lib/schemas/surveys";
import { requireOrg } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { createSurvey, venueChoices } from "~/services/surveys/surveys.server";
import { logFailure, surveysPath } from "~/routes/$orgId+/_surveys+/__surveys.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction = () => [{ title: "Create Survey | Mlango" }];

// surveys/create (docs/guide/surveys.md#create-survey; edit_surveys): title, description, dates,
// networks, questions; success goes to the survey list (docs/guide/surveys.md#validation) with
// 'Survey created successfully!'.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_surveys");
  return json({ orgId: ctx.org.id, venues: await venueChoices(ctx), today: todayIso(Date.now(), ctx.org.clock.offsetMs) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_surveys");
  const submission = parseForm(await request.formData(), { schema: surveySchema });
  // Add question / Remove (list intents) come back as the changed form.
  if (submission.status === undefined) return json(submission.reply());
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  let outcome;
  try {
    outcome = await createSurvey(ctx, submission.value);
  } catch (error) {
    logFailure("survey_create_failed", ctx, error);
    return json(submission.reply({ formErrors: [SURVEY_MESSAGES.createFailed] }), { status: 500 });
  }
  if (!outcome.ok) return json(submission.reply({ fieldErrors: outcome.errors }), { status: 400 });
  return redirectWithToast(request, surveysPath(ctx.org.id), SURVEY_MESSAGES.created);
}

export default function CreateSurvey() {
  const { orgId, venues, today } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/surveys`} className="link">
          Surveys
        </Link>{" "}
        › <span>Create Survey</span>
      </nav>
      <section className="card">
        <h1 className="mb-4 text-xl font-semibold">Create Survey</h1>
        <SurveyForm
          lastResult={lastResult}
          defaultValue={{ title: "", description: "", start_date: today, end_date: today, venues: [], questions: [{ ...NEW_QUESTION }] }}
          venues={venues}
          submitLabel="Save survey"
          cancelTo={`/${orgId}/surveys`}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
