import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { StatusBadge } from "~/components/surveys/status-badge";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { SEARCH_DEBOUNCE_MS, SURVEY_MESSAGES, SURVEY_PAGE_SIZES } from "~/lib/schemas/surveys";
import { requireOrg } from "~/services/guard.server";
import { listSurveys, type SurveySummary } from "~/services/surveys/surveys.server";
import { deleteSurveyAction, logFailure } from "./__surveys.server";

export const meta: MetaFunction = () => [{ title: "Surveys | Mlango" }];

// surveys (spec 3 §2 "Survey list"; view_surveys): title, description, dates, status derived from the
// dates, page sizes up to 100, search (debounced 500 ms with JavaScript, a Search button without),
// Delete (edit_surveys) after 'Are you sure you want to delete this survey?'.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_surveys");
  const list = parseListParams(new URL(request.url).searchParams, SURVEY_PAGE_SIZES);
  let result: { rows: SurveySummary[]; total: number } = { rows: [], total: 0 };
  let failed = false;
  try {
    result = await listSurveys(ctx, list);
  } catch (error) {
    logFailure("surveys_list_failed", ctx, error);
    failed = true;
  }
  return json(
    {
      orgId: ctx.org.id,
      surveys: result.rows.map((s) => ({ id: s.id, title: s.title, description: s.description, start_date: s.start_date, end_date: s.end_date, status: s.status })),
      total: result.total,
      list,
      failed,
      canEdit: ctx.permissions.has("edit_surveys"),
    },
    { status: failed ? 500 : 200 },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireOrg(request, params, "edit_surveys");
  const form = await request.formData();
  if (form.get("intent") !== "delete") return json({ message: "Unknown action." }, { status: 400 });
  return deleteSurveyAction(request, ctx, form);
}

/** Records per page and search; with JavaScript the search applies 500 ms after typing stops. */
function SurveyListControls({ pageSize, search }: { pageSize: number; search: string }) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Form method="get" className="mb-3 flex flex-wrap items-end gap-3 text-sm" role="search">
      <label className="flex items-center gap-2">
        Records per page
        <select name="per_page" defaultValue={pageSize} className="input w-auto" onChange={(e) => submit(e.currentTarget.form)}>
          {SURVEY_PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2">
        <span className="sr-only">Search surveys</span>
        <input
          type="search"
          name="search"
          defaultValue={search}
          placeholder="Search surveys"
          className="input w-56"
          onChange={(e) => {
            const form = e.currentTarget.form;
            clearTimeout(timer.current);
            timer.current = setTimeout(() => submit(form, { replace: true }), SEARCH_DEBOUNCE_MS);
          }}
        />
      </label>
      <button type="submit" className="btn-secondary">
        Search
      </button>
    </Form>
  );
}

export default function Surveys() {
  const { orgId, surveys, total, list, failed, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="card">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Surveys</h1>
        {canEdit ? (
          <Link to={`/${orgId}/surveys/create`} className="btn-primary">
            Create Survey
          </Link>
        ) : null}
      </div>
      <ActionFeedback actionData={actionData} cancelTo={`/${orgId}/surveys`} />
      {failed ? <FormErrors errors={[SURVEY_MESSAGES.loadListFailed]} /> : null}
      <SurveyListControls pageSize={list.pageSize} search={list.search} />
      <div className="overflow-x-auto">
        <table className="table">
          <thead>
            <tr>
              <th>#</th>
              <th>Title</th>
              <th>Description</th>
              <th>Start date</th>
              <th>End date</th>
              <th>Status</th>
              {canEdit ? (
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {surveys.length === 0 && !failed ? (
              <tr>
                <td colSpan={7} className="text-center text-slate-500">
                  {list.search ? "No survey matches the search." : "No surveys yet."}
                </td>
              </tr>
            ) : null}
            {surveys.map((s, index) => (
              <tr key={s.id}>
                <td>{rowNumber(list, index)}</td>
                <td>
                  <Link to={`/${orgId}/survey/${s.id}`} className="link">
                    {s.title}
                  </Link>
                </td>
                <td>{s.description ?? ""}</td>
                <td>{s.start_date}</td>
                <td>{s.end_date}</td>
                <td>
                  <StatusBadge status={s.status} />
                </td>
                {canEdit ? (
                  <td className="text-right">
                    <ConfirmButton intent="delete" message={SURVEY_MESSAGES.deleteQuestion} fields={{ id: s.id }} className="btn-danger text-xs">
                      Delete<span className="sr-only"> {s.title}</span>
                    </ConfirmButton>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
