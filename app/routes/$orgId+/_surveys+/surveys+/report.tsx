import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { BarChart } from "~/components/charts";
import { DataTable, type Column } from "~/components/ui/data-table";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { FormErrors } from "~/components/ui/field";
import { PERSONAL_DATA_PERMISSION } from "~/lib/permissions";
import { RESPONSE_COLUMNS, RESPONSES_PER_PAGE, SURVEY_MESSAGES, responsesPageWindow, responsesQuerySchema } from "~/lib/schemas/surveys";
import { requireOrg } from "~/services/guard.server";
import {
  questionSummaries,
  responsesPage,
  type QuestionSummary,
  type ResponseRow,
  type ResponsesPage,
} from "~/services/surveys/responses.server";
import { surveyChoices } from "~/services/surveys/surveys.server";
import { logFailure } from "~/routes/$orgId+/_surveys+/__surveys.server";

export const meta: MetaFunction = () => [{ title: "Survey Report | Mlango" }];

// surveys/report (docs/guide/surveys.md#survey-report; view_surveys): pick a survey ('Please select
// a survey') and dates; answers 20 per page with the spec's page window; per-question summaries as
// charts drawn on the server; surveys.csv (every row) and the XLSX of the page. Names and contacts
// need view_clients.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireOrg(request, params, "view_surveys");
  const searchParams = new URL(request.url).searchParams;
  const asked = Object.fromEntries(searchParams);
  let surveys: { id: number; title: string }[] = [];
  const errors: string[] = [];
  try {
    surveys = await surveyChoices(ctx);
  } catch (error) {
    logFailure("survey_choices_failed", ctx, error);
    errors.push(SURVEY_MESSAGES.loadSurveysListFailed);
  }
  const parsed = responsesQuerySchema.safeParse({ ...asked, per_page: String(RESPONSES_PER_PAGE) });
  let page: ResponsesPage | null = null;
  let summaries: QuestionSummary[] = [];
  let prompt: string | null = null;
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === "survey_id") prompt = SURVEY_MESSAGES.selectSurvey;
    else errors.push(issue?.message ?? SURVEY_MESSAGES.fetchResponsesFailed);
  } else {
    try {
      [page, summaries] = await Promise.all([responsesPage(ctx, parsed.data), questionSummaries(ctx, parsed.data)]);
    } catch (error) {
      logFailure("survey_responses_failed", ctx, error);
      errors.push(SURVEY_MESSAGES.fetchResponsesFailed);
    }
  }
  return json({
    orgId: ctx.org.id,
    surveys,
    asked: { survey_id: asked.survey_id ?? "", start_date: asked.start_date ?? "", end_date: asked.end_date ?? "" },
    prompt,
    errors,
    page,
    summaries,
    personal: ctx.permissions.has(PERSONAL_DATA_PERMISSION),
  });
}

/** The answers table's cells, one per RESPONSE_COLUMNS header (the CSV and XLSX share those headers). */
const RESPONSE_CELLS: Record<(typeof RESPONSE_COLUMNS)[number], Omit<Column<ResponseRow>, "header">> = {
  Question: { cell: (r) => r.surveyquestion },
  Response: { cell: (r) => r.surveyresponse },
  "First Name": { cell: (r) => r.firstname ?? "" },
  "Last Name": { cell: (r) => r.lastname ?? "" },
  Email: { long: true, cell: (r) => r.email ?? "" },
  "Phone Number": { nowrap: true, cell: (r) => r.phonenumber ?? "" },
};

function exportQuery(asked: { survey_id: string; start_date: string; end_date: string }, page?: number) {
  const q = new URLSearchParams({ survey_id: asked.survey_id });
  if (asked.start_date) q.set("start_date", asked.start_date);
  if (asked.end_date) q.set("end_date", asked.end_date);
  if (page) q.set("page", String(page));
  return q.toString();
}

export default function SurveyReport() {
  const { orgId, surveys, asked, prompt, errors, page, summaries, personal } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <section className="card">
        <h1 className="mb-4 text-xl font-semibold">Survey Report</h1>
        <FormErrors errors={errors} />
        <Form method="get" className="flex flex-wrap items-end gap-3 text-sm">
          <div className="flex flex-col gap-1">
            <label htmlFor="report-survey" className="label">
              Survey
            </label>
            <select id="report-survey" name="survey_id" defaultValue={asked.survey_id} className="input w-64">
              <option value="">Select a survey</option>
              {surveys.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title}
                </option>
              ))}
            </select>
          </div>
          <label className="flex flex-col gap-1">
            <span className="label">From</span>
            <input type="date" name="start_date" defaultValue={asked.start_date} className="input" />
          </label>
          <label className="flex flex-col gap-1">
            <span className="label">To</span>
            <input type="date" name="end_date" defaultValue={asked.end_date} className="input" />
          </label>
          <button type="submit" className="btn-primary">
            Show
          </button>
        </Form>
        {prompt ? (
          <p role="status" className="mt-4 text-sm text-slate-600">
            {prompt}
          </p>
        ) : null}
      </section>
      {page ? (
        <>
          {summaries.length ? (
            <section className="card">
              <h2 className="mb-3 text-lg font-semibold">Summary</h2>
              <div className="grid gap-6 lg:grid-cols-2">
                {summaries.map((s) => (
                  <Summary key={s.id} summary={s} />
                ))}
              </div>
            </section>
          ) : null}
          <section className="card">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-lg font-semibold">
                Responses <span className="text-sm font-normal text-slate-500">({page.pagination.total})</span>
              </h2>
              {page.pagination.total > 0 ? (
                <div className="flex gap-2">
                  <a href={`/${orgId}/surveys/surveys.csv?${exportQuery(asked)}`} className="btn-secondary" download>
                    Export CSV
                  </a>
                  <a
                    href={`/${orgId}/surveys/report.xlsx?${exportQuery(asked, page.pagination.current_page)}`}
                    className="btn-secondary"
                    download
                  >
                    Export page (XLSX)
                  </a>
                </div>
              ) : null}
            </div>
            {!personal ? <p className="mb-2 text-xs text-slate-500">Names and contacts need the View clients permission.</p> : null}
            <DataTable
              rows={page.rows}
              rowKey={(r) => r.id}
              empty={SURVEY_MESSAGES.noResponses}
              columns={[
                { header: "#", cell: (_r, i) => (page.pagination.current_page - 1) * page.pagination.per_page + i + 1 },
                ...RESPONSE_COLUMNS.map((header) => ({ header, ...RESPONSE_CELLS[header] })),
              ]}
            />
            <ResponsesPagination current={page.pagination.current_page} last={page.pagination.last_page} />
          </section>
        </>
      ) : null}
    </div>
  );
}

/**
 * The report's page list (docs/guide/surveys.md#survey-report): all pages if 7 or fewer, else first, last
 * and two either side, with ellipses.
 */
function ResponsesPagination({ current, last }: { current: number; last: number }) {
  const location = useLocation();
  if (last <= 1) return null;
  const href = (p: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(p));
    return `${location.pathname}?${params}`;
  };
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center gap-1 text-sm">
      {current > 1 ? (
        <Link className="btn-secondary" to={href(current - 1)} rel="prev">
          Previous
        </Link>
      ) : null}
      {responsesPageWindow(current, last).map((p, i) =>
        p === null ? (
          <span key={`gap${i}`} className="px-2 text-slate-400">
            …
          </span>
        ) : (
          <Link
            key={p}
            to={href(p)}
            aria-current={p === current ? "page" : undefined}
            className={p === current ? "btn-primary" : "btn-secondary"}
          >
            {p}
          </Link>
        ),
      )}
      {current < last ? (
        <Link className="btn-secondary" to={href(current + 1)} rel="next">
          Next
        </Link>
      ) : null}
    </nav>
  );
}

function Summary({ summary }: { summary: QuestionSummary }) {
  const title = `${summary.question_text}${summary.removed ? " (removed)" : ""}`;
  if (summary.question_type === "text") {
    return (
      <figure>
        <figcaption className="font-medium text-slate-800">{title}</figcaption>
        <p className="mt-2 text-sm text-slate-600">{summary.answers} text answers (listed below).</p>
      </figure>
    );
  }
  return (
    <div>
      <BarChart
        title={title}
        series={[{ id: "Answers", points: summary.counts.map((c) => ({ x: c.label, y: c.count })) }]}
        xLegend={summary.question_type === "rating" ? "Rating" : "Option"}
        yLegend="Answers"
        width={440}
        height={220}
      />
      {summary.question_type === "rating" ? (
        <p className="mt-1 text-sm text-slate-600">Average rating: {summary.average === null ? "—" : summary.average.toFixed(2)}</p>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
