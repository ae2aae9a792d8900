import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { StatusBadge } from "~/components/surveys/status-badge";
import { SurveyForm } from "~/components/surveys/survey-form";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { parseId } from "~/lib/ids";
import { QUESTION_TYPE_LABELS, SURVEY_MESSAGES, surveySchema } from "~/lib/schemas/surveys";
import { requireOrg, requirePermission } from "~/services/guard.server";
import { redirectWithToast } from "~/services/session.server";
import { findSurvey, getSurvey, surveyFormValues, updateSurvey, venueChoices } from "~/services/surveys/surveys.server";
import { deleteSurveyAction, logFailure, surveyPath } from "~/routes/$orgId+/_surveys+/__surveys.server";
import { parseForm } from "~/services/forms.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.survey.title ?? "Survey"} | Mlango` }];

// survey/{id} (docs/guide/surveys.md#survey-detail; view_surveys): the survey, and with ?edit
// (edit_surveys) its form. Cancel goes back to the view (the stored survey, untouched); Save
// stores and returns to the view with 'Survey Edited successfully!'. Another organisation's or an
// unknown id is a 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_surveys");
  const editing = new URL(request.url).searchParams.has("edit");
  if (editing) requirePermission(ctx, "edit_surveys");
  let survey;
  try {
    survey = await getSurvey(ctx, parseId(params.id));
  } catch (error) {
    logFailure("survey_load_failed", ctx, error);
    throw json({ message: SURVEY_MESSAGES.loadFailed }, { status: 500 });
  }
  return json({
    orgId: ctx.org.id,
    survey,
    editing,
    values: surveyFormValues(survey),
    venues: editing ? await venueChoices(ctx) : [],
    canEdit: ctx.permissions.has("edit_surveys"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_surveys");
  const survey = await findSurvey(ctx, parseId(params.id));
  const form = await request.formData();
  if (form.get("intent") === "delete") {
    form.set("id", String(survey.id));
    return deleteSurveyAction(request, ctx, form);
  }
  const submission = parseForm(form, { schema: surveySchema });
  if (submission.status === undefined) return json(submission.reply());
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  let outcome;
  try {
    outcome = await updateSurvey(ctx, survey.id, submission.value);
  } catch (error) {
    logFailure("survey_save_failed", ctx, error);
    return json(submission.reply({ formErrors: [SURVEY_MESSAGES.saveFailed] }), { status: 500 });
  }
  if (!outcome.ok) return json(submission.reply({ fieldErrors: outcome.errors }), { status: 400 });
  return redirectWithToast(request, surveyPath(ctx.org.id, survey.id), SURVEY_MESSAGES.edited);
}

export default function Survey() {
  const { orgId, survey, editing, values, venues, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const base = `/${orgId}/survey/${survey.id}`;
  const isFormResult = actionData && typeof actionData === "object" && "status" in actionData;
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
        <Link to={`/${orgId}/surveys`} className="link">
          Surveys
        </Link>{" "}
        › <span>{survey.title}</span>
      </nav>
      <section className="card">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-xl font-semibold">
            {survey.title} <StatusBadge status={survey.status} />
          </h1>
          <div className="flex gap-2">
            <Link to={`/${orgId}/surveys/report?survey_id=${survey.id}`} className="btn-secondary">
              Report
            </Link>
            {canEdit && !editing ? (
              <>
                <Link to={`${base}?edit`} className="btn-primary">
                  Edit
                </Link>
                <ConfirmButton intent="delete" message={SURVEY_MESSAGES.deleteQuestion} fields={{ id: survey.id }} className="btn-danger">
                  Delete
                </ConfirmButton>
              </>
            ) : null}
          </div>
        </div>
        {isFormResult ? null : <ActionFeedback actionData={actionData} cancelTo={base} />}
        {editing ? (
          <SurveyForm
            key={survey.id}
            lastResult={isFormResult ? (actionData as never) : null}
            defaultValue={values}
            venues={venues}
            submitLabel="Save"
            cancelTo={base}
          />
        ) : (
          <SurveyView survey={survey} />
        )}
      </section>
    </div>
  );
}

function SurveyView({ survey }: { survey: ReturnType<typeof useLoaderData<typeof loader>>["survey"] }) {
  return (
    <div className="space-y-4">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium text-slate-600">Description</dt>
        <dd>{survey.description ?? "—"}</dd>
        <dt className="font-medium text-slate-600">Start date</dt>
        <dd>{survey.start_date}</dd>
        <dt className="font-medium text-slate-600">End date</dt>
        <dd>{survey.end_date}</dd>
        <dt className="font-medium text-slate-600">Runs on</dt>
        <dd>{survey.venues.length ? survey.venues.map((v) => v.name).join(", ") : "Every network"}</dd>
      </dl>
      <div>
        <h2 className="mb-2 font-semibold">Questions</h2>
        <ol className="list-decimal space-y-2 pl-6 text-sm">
          {survey.questions.map((q) => (
            <li key={q.id}>
              <span className="font-medium">{q.question_text}</span>{" "}
              <span className="text-slate-500">({QUESTION_TYPE_LABELS[q.question_type]})</span>
              {q.options.length ? <span className="block text-slate-600">Options: {q.options.join(", ")}</span> : null}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/** 404 and 403 as everywhere; a survey that could not be read says 'Failed to load survey.' */
export function ErrorBoundary() {
  const error = useRouteError();
  if (
    isRouteErrorResponse(error) &&
    error.status === 500 &&
    (error.data as { message?: string } | null)?.message === SURVEY_MESSAGES.loadFailed
  ) {
    return <FormErrors errors={[SURVEY_MESSAGES.loadFailed]} />;
  }
  return <GeneralErrorBoundary />;
}
