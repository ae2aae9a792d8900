import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { ConfirmButton } from "~/components/ui/confirm";
import { DataTable } from "~/components/ui/data-table";
import { ErrorList, Field, FormErrors, SubmitButton } from "~/components/ui/field";
import { DEFAULT_MAP_ZOOM, MAX_MAP_ZOOM, MIN_MAP_ZOOM, ZONE_SIZE, type Polygon } from "~/lib/layout";
import { venueMapSchema, zoneSchema } from "~/lib/schemas/layout";
import { Time } from "~/components/ui/time";

type Result = SubmissionResult<string[]> | null;

const degrees = (n: number) => n.toFixed(6);

/** The map's centre, zoom and layout polygon as typed values (the map without JavaScript, or precisely). */
export function VenueMapForm({
  venue,
  lastResult,
}: {
  venue: { lat: number | null; lng: number | null; mapZoom: number | null; polygons: Polygon[] };
  lastResult: Result;
}) {
  const [form, fields] = useForm({
    id: "venue-map",
    lastResult,
    defaultValue: {
      lat: venue.lat?.toString() ?? "",
      lng: venue.lng?.toString() ?? "",
      map_zoom: venue.mapZoom?.toString() ?? "",
      layout_polygon: venue.polygons.length ? JSON.stringify(venue.polygons) : "",
    },
    constraint: getZodConstraint(venueMapSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: venueMapSchema }),
  });
  const { key: polygonKey, ...polygon } = getTextareaProps(fields.layout_polygon);
  return (
    <section className="card" aria-labelledby="venue-map-heading">
      <h2 id="venue-map-heading" className="mb-2 text-lg font-semibold">
        Map centre and layout
      </h2>
      <Form method="post" {...getFormProps(form)} className="max-w-3xl">
        <FormErrors errors={form.errors} />
        <div className="grid gap-x-4 sm:grid-cols-3">
          <Field
            label="Centre latitude"
            inputProps={{ ...getInputProps(fields.lat, { type: "number" }), step: "any" }}
            errors={fields.lat.errors}
          />
          <Field
            label="Centre longitude"
            inputProps={{ ...getInputProps(fields.lng, { type: "number" }), step: "any" }}
            errors={fields.lng.errors}
          />
          <Field
            label="Zoom"
            inputProps={{ ...getInputProps(fields.map_zoom, { type: "number" }), step: "any" }}
            errors={fields.map_zoom.errors}
            hint={`${MIN_MAP_ZOOM} to ${MAX_MAP_ZOOM}; ${DEFAULT_MAP_ZOOM} when empty.`}
          />
        </div>
        <div className="mb-4">
          <label htmlFor={polygon.id} className="label">
            Layout polygon
          </label>
          <textarea key={polygonKey} {...polygon} rows={4} className="input font-mono text-xs" />
          <p className="mt-1 text-xs text-slate-500">
            A JSON list of polygons, each a list of points such as {'[[{"lat": -1.2864, "lng": 36.8172}, …]]'}. Empty removes the polygon.
          </p>
          <ErrorList errors={fields.layout_polygon.errors} />
        </div>
        <SubmitButton name="intent" value="venue-map" pendingText="Saving…">
          Save map settings
        </SubmitButton>
      </Form>
    </section>
  );
}

/** The zones below the map: each with a Remove button, and a form that adds one by its corner. */
export function ZonesSection({
  zones,
  canEdit,
  lastResult,
}: {
  zones: { id: number; polygon: Polygon; createdAt: number }[];
  canEdit: boolean;
  lastResult: Result;
}) {
  const [form, fields] = useForm({
    id: "add-zone",
    lastResult,
    constraint: getZodConstraint(zoneSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: zoneSchema }),
  });
  return (
    <section className="card" aria-labelledby="zones-heading">
      <h2 id="zones-heading" className="mb-2 text-lg font-semibold">
        Zones
      </h2>
      <div className="mb-4">
        <DataTable
          rows={zones}
          rowKey={(zone) => zone.id}
          empty={`No zones yet.${canEdit ? " Click the map, or use the form below, to add one." : ""}`}
          columns={[
            { header: "#", nowrap: true, cell: (_zone, i) => `Zone ${i + 1}` },
            {
              header: "South-west corner",
              nowrap: true,
              cell: (zone) => {
                const corner = zone.polygon[0];
                return corner ? `${degrees(corner.lat)}, ${degrees(corner.lng)}` : "—";
              },
            },
            { header: "Added", nowrap: true, cell: (zone) => <Time ms={zone.createdAt} /> },
          ]}
          actions={
            canEdit
              ? (zone, i) => (
                  <ConfirmButton
                    intent="remove-zone"
                    message={`Remove zone ${i + 1} from the map?`}
                    fields={{ zone_id: zone.id }}
                    className="btn-secondary"
                  >
                    Remove
                  </ConfirmButton>
                )
              : undefined
          }
        />
      </div>
      {canEdit ? (
        <Form method="post" {...getFormProps(form)} className="max-w-3xl">
          <FormErrors errors={form.errors} />
          <p className="mb-2 text-sm text-slate-600">A zone is a square of {ZONE_SIZE}° whose south-west corner you give.</p>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field
              label="Zone latitude"
              inputProps={{ ...getInputProps(fields.lat, { type: "number" }), step: "any" }}
              errors={fields.lat.errors}
            />
            <Field
              label="Zone longitude"
              inputProps={{ ...getInputProps(fields.lng, { type: "number" }), step: "any" }}
              errors={fields.lng.errors}
            />
          </div>
          <SubmitButton name="intent" value="add-zone" pendingText="Adding…">
            Add zone
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
