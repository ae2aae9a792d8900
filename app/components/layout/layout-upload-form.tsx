import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { FormErrors } from "~/components/ui/field";
import { MAX_IMAGE_BYTES, UPLOAD_MESSAGES } from "~/lib/image-type";

/**
 * The floor-plan upload: a plain multipart form posted by the browser itself (so an oversized
 * file meets the server's readable 413 page even without JavaScript). With JavaScript, a file
 * over the limit is refused before it is sent; the server checks type and size either way.
 */
export function LayoutUploadForm({ error, cancelTo }: { error?: string | null; cancelTo?: string }) {
  const [tooLarge, setTooLarge] = useState(false);
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      reloadDocument
      className="max-w-xl"
      onSubmit={(event) => {
        const input = event.currentTarget.elements.namedItem("file");
        const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
        const refuse = file !== undefined && file.size > MAX_IMAGE_BYTES;
        setTooLarge(refuse);
        if (refuse) event.preventDefault();
      }}
    >
      <FormErrors errors={tooLarge ? [UPLOAD_MESSAGES.tooLarge] : error ? [error] : null} />
      <label htmlFor="layout-file" className="label">
        Floor plan image
      </label>
      <input id="layout-file" type="file" name="file" accept="image/png,image/jpeg,image/webp" className="input" />
      <p className="mt-1 text-xs text-slate-500">A PNG, JPEG or WebP image of at most 10 MB.</p>
      <div className="mt-4 flex gap-2">
        <button type="submit" className="btn-primary">
          Upload layout plan
        </button>
        {cancelTo ? (
          <Link to={cancelTo} className="btn-secondary">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
