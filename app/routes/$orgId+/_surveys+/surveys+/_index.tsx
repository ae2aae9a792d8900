import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { StatusBadge } from "~/components/surveys/status-badge";
import { ActionFeedback, ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { parseListParams, rowNumber } from "~/lib/pagination";
import { SEARCH_DEBOUNCE_MS, SURVEY_MESSAGES, SURVEY_PAGE_SIZES } from "~/lib/schemas/surveys";
import { requireOrg } from "~/services/guard.server";
import { listSurveys, type SurveySummary } from "~/services/surveys/surveys.server";
import { deleteSurveyAction, logFailure } from "~/routes/$orgId+/_surveys+/__surveys.server";

export const meta: MetaFunction = () => [{ title: "Surveys | Mlango" }];

// surveys (docs/guide/surveys.md#survey-list; view_surveys): title, description, dates, status derived from the
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
      surveys: result.rows.map((s) => ({
        id: s.id,
        title: s.title,
        description: s.description,
        start_date: s.start_date,
        end_date: s.end_date,
        status: s.status,
      })),
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
      <DataTable
        rows={surveys}
        rowKey={(s) => s.id}
        empty={failed ? null : list.search ? "No survey matches the search." : "No surveys yet."}
        columns={[
          { header: "#", cell: (_s, index) => rowNumber(list, index) },
          {
            header: "Title",
            cell: (s) => (
              <Link to={`/${orgId}/survey/${s.id}`} className="link">
                {s.title}
              </Link>
            ),
          },
          { header: "Description", cell: (s) => s.description ?? "" },
          { header: "Start date", nowrap: true, cell: (s) => s.start_date },
          { header: "End date", nowrap: true, cell: (s) => s.end_date },
          { header: "Status", cell: (s) => <StatusBadge status={s.status} /> },
        ]}
        actions={
          canEdit
            ? (s) => (
                <ConfirmButton
                  intent="delete"
                  message={SURVEY_MESSAGES.deleteQuestion}
                  fields={{ id: s.id }}
                  className="btn-danger text-xs"
                >
                  Delete<span className="sr-only"> {s.title}</span>
                </ConfirmButton>
              )
            : undefined
        }
      />
      <Pagination page={list.page} pageSize={list.pageSize} total={total} />
    </section>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
