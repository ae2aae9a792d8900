import type { Toast } from "~/lib/toast";

const styles: Record<Toast["type"], string> = {
  success: "border-green-300 bg-green-50 text-green-800",
  error: "border-red-300 bg-red-50 text-red-800",
  info: "border-sky-300 bg-sky-50 text-sky-800",
};

/** A flash message from the previous request (Post/Redirect/Get). */
export function ToastMessage({ toast }: { toast: Toast | null }) {
  if (!toast) return null;
  return (
    <div role="status" className={`mx-auto mt-4 max-w-3xl rounded-md border px-4 py-3 text-sm ${styles[toast.type]}`}>
      {toast.message}
    </div>
  );
}
