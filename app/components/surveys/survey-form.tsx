// The survey form of surveys/create and of survey/{id} in edit mode: title, description, dates, the
// networks it runs on, and its questions. Questions are added and removed with conform's list intents
// (the buttons post the form), so the editor works without JavaScript.
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import type { ButtonHTMLAttributes } from "react";
import { ErrorList, Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { NEW_QUESTION, QUESTION_TYPE_LABELS, QUESTION_TYPES, surveySchema } from "~/lib/schemas/surveys";

export type SurveyFormValues = {
  title: string;
  description: string;
  start_date: string;
  end_date: string;
  venues: string[];
  questions: { id?: string; question_text: string; question_type: string; options: string }[];
};

type QuestionFields = { id?: string; question_text: string; question_type: string; options: string };

export function SurveyForm({
  lastResult,
  defaultValue,
  venues,
  submitLabel,
  cancelTo,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue: SurveyFormValues;
  venues: { id: number; name: string }[];
  submitLabel: string;
  cancelTo: string;
}) {
  const [form, fields] = useForm({
    lastResult,
    defaultValue,
    constraint: getZodConstraint(surveySchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: surveySchema }),
  });
  const questions = fields.questions.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-3xl">
      <FormErrors errors={form.errors} />
      <Field label="Title" inputProps={getInputProps(fields.title, { type: "text" })} errors={fields.title.errors} />
      <div className="mb-4">
        <label htmlFor={fields.description.id} className="label">
          Description
        </label>
        <textarea {...getTextareaProps(fields.description)} rows={3} maxLength={1000} className="input" />
        <ErrorList errors={fields.description.errors} />
      </div>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field label="Start date" inputProps={getInputProps(fields.start_date, { type: "date" })} errors={fields.start_date.errors} />
        <Field label="End date" inputProps={getInputProps(fields.end_date, { type: "date" })} errors={fields.end_date.errors} />
      </div>
      <div className="mb-4">
        <label htmlFor={fields.venues.id} className="label">
          Runs on networks
        </label>
        <select {...getSelectProps(fields.venues)} multiple size={Math.min(6, Math.max(3, venues.length))} className="input">
          {venues.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
        <p className="mt-1 text-xs text-slate-500">None chosen: every network. Ctrl or ⌘ chooses several.</p>
        <ErrorList errors={fields.venues.errors} />
      </div>
      <fieldset className="mb-4">
        <legend className="label">Questions</legend>
        {questions.length === 0 ? <p className="mb-2 text-sm text-slate-500">No questions yet.</p> : null}
        <ol className="space-y-3">
          {questions.map((question, index) => (
            <QuestionRow
              key={question.key}
              question={question}
              index={index}
              remove={form.remove.getButtonProps({ name: fields.questions.name, index })}
            />
          ))}
        </ol>
        <button {...form.insert.getButtonProps({ name: fields.questions.name, defaultValue: NEW_QUESTION })} className="btn-secondary mt-2">
          Add question
        </button>
        <ErrorList errors={fields.questions.errors} />
      </fieldset>
      <div className="flex gap-2">
        <SubmitButton name="intent" value="save" pendingText="Saving…">
          {submitLabel}
        </SubmitButton>
        <Link to={cancelTo} className="btn-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

function QuestionRow({
  question,
  index,
  remove,
}: {
  question: FieldMetadata<QuestionFields>;
  index: number;
  remove: ButtonHTMLAttributes<HTMLButtonElement>;
}) {
  const f = question.getFieldset();
  const n = index + 1;
  return (
    <li className="rounded-md border border-slate-200 p-3">
      <input {...getInputProps(f.id, { type: "hidden" })} />
      <div className="grid gap-x-3 sm:grid-cols-3">
        <div className="sm:col-span-2">
          <label htmlFor={f.question_text.id} className="label">
            Question {n}
          </label>
          <input {...getInputProps(f.question_text, { type: "text" })} className="input" />
          <ErrorList errors={f.question_text.errors} />
        </div>
        <div>
          <label htmlFor={f.question_type.id} className="label">
            Question {n} type
          </label>
          <select {...getSelectProps(f.question_type)} className="input">
            {QUESTION_TYPES.map((t) => (
              <option key={t} value={t}>
                {QUESTION_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
          <ErrorList errors={f.question_type.errors} />
        </div>
      </div>
      <div className="mt-2">
        <label htmlFor={f.options.id} className="label">
          Question {n} options
        </label>
        <input {...getInputProps(f.options, { type: "text" })} className="input" placeholder="Comma separated, e.g. Yes, No, Maybe" />
        <p className="mt-1 text-xs text-slate-500">For multiple choice, checkboxes and dropdowns; ignored for text and rating.</p>
        <ErrorList errors={f.options.errors} />
      </div>
      <button {...remove} className="btn-secondary mt-2 text-xs" aria-label={`Remove question ${n}`}>
        Remove
      </button>
    </li>
  );
}
