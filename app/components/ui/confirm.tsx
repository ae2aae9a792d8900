import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { isConfirmationRequest, type ConfirmationRequest } from "~/lib/confirm";
import { FormErrors } from "./field";

interface ConfirmButtonProps {
  intent: string;
  message: string;
  fields?: Record<string, string | number>;
  className?: string;
  children: ReactNode;
  action?: string;
}

/** A one-button form that asks `message` before it posts `intent` with `confirmed=yes`. */
export function ConfirmButton({ intent, message, fields = {}, className = "btn-danger", children, action }: ConfirmButtonProps) {
  return (
    <Form
      method="post"
      action={action}
      className="inline"
      onSubmit={(event) => {
        if (!window.confirm(message)) {
          event.preventDefault();
          return;
        }
        const confirmed = event.currentTarget.elements.namedItem("confirmed");
        if (confirmed instanceof HTMLInputElement) confirmed.value = "yes";
      }}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={String(value)} />
      ))}
      <input type="hidden" name="confirmed" value="" />
      <button type="submit" name="intent" value={intent} className={className}>
        {children}
      </button>
    </Form>
  );
}

/** The no-JavaScript confirmation step: the question, a confirm button and a way back. */
export function ConfirmPrompt({ request, cancelTo, action }: { request: ConfirmationRequest; cancelTo: string; action?: string }) {
  const { message, intent, fields } = request.confirm;
  return (
    <div role="alertdialog" aria-labelledby="confirm-message" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-4">
      <p id="confirm-message" className="font-medium text-amber-900">
        {message}
      </p>
      <Form method="post" action={action} className="mt-3 flex gap-2">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" name="intent" value={intent} className="btn-danger">
          Yes, continue
        </button>
        <Link to={cancelTo} className="btn-secondary">
          Cancel
        </Link>
      </Form>
    </div>
  );
}

/**
 * What a page's one-button actions answered: the confirmation step (without JavaScript) or the
 * refusal message (`{ message }`). Forms with fields show their own errors instead.
 */
export function ActionFeedback({ actionData, cancelTo }: { actionData: unknown; cancelTo: string }) {
  if (isConfirmationRequest(actionData)) return <ConfirmPrompt request={actionData} cancelTo={cancelTo} />;
  const message = (actionData as { message?: unknown } | null | undefined)?.message;
  return typeof message === "string" ? <FormErrors errors={[message]} /> : null;
}
