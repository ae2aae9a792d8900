import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from "react";
import { CANVAS_HEIGHT, CANVAS_WIDTH, clampToCanvas, HEATMAP_RADIUS } from "~/lib/layout";

export interface PlanMarker {
  id: number;
  name: string;
  x: number;
  y: number;
  /** False: never placed, drawn at its staggered spot. */
  placed: boolean;
}

export interface HeatPoint {
  id: number;
  x: number;
  y: number;
  connections: number;
}

/** What a position save answered (the layout route's "move" intent). */
export type MoveResult = { ok: true } | { ok: false; message: string };

const percent = (value: number, of: number) => `${(value / of) * 100}%`;

/**
 * The floor plan on the 1310 × 700 canvas: the image, access point markers (server-rendered at
 * their positions, so the plan reads without JavaScript) and, in heatmap mode, a heat layer.
 * With JavaScript and edit rights, markers can be dragged (pointer) or nudged (arrow keys); each
 * drop is saved at once, and a failed save is reported through onSaveFailed.
 */
export function FloorPlan({
  imageUrl,
  venueName,
  markers,
  heat,
  editable,
  onSaveFailed,
}: {
  imageUrl: string;
  venueName: string;
  markers: PlanMarker[];
  heat: HeatPoint[] | null;
  editable: boolean;
  onSaveFailed: (name: string, message: string) => void;
}) {
  const canvas = useRef<HTMLDivElement>(null);
  return (
    <div
      ref={canvas}
      data-testid="floor-plan"
      className="relative w-full select-none overflow-hidden rounded-md border border-slate-200 bg-slate-50"
      style={{ aspectRatio: `${CANVAS_WIDTH} / ${CANVAS_HEIGHT}` }}
    >
      <img src={imageUrl} alt={`Layout plan of ${venueName}`} className="absolute inset-0 h-full w-full object-contain" draggable={false} />
      {heat ? <HeatLayer points={heat} /> : null}
      {markers.map((marker) => (
        <Marker key={marker.id} marker={marker} canvas={canvas} editable={editable && !heat} onSaveFailed={onSaveFailed} />
      ))}
    </div>
  );
}

function Marker({
  marker,
  canvas,
  editable,
  onSaveFailed,
}: {
  marker: PlanMarker;
  canvas: RefObject<HTMLDivElement>;
  editable: boolean;
  onSaveFailed: (name: string, message: string) => void;
}) {
  const fetcher = useFetcher<MoveResult>({ key: `floor-position-${marker.id}` });
  const [dragging, setDragging] = useState<{ x: number; y: number } | null>(null);
  const reported = useRef<unknown>(null);

  // A failed save is said out loud once, as soon as it is known: the revalidation that follows may
  // remove this marker (its access point gone). The marker goes back to its saved place (the loader's).
  useEffect(() => {
    if (fetcher.data && fetcher.data !== reported.current) {
      reported.current = fetcher.data;
      if (!fetcher.data.ok) onSaveFailed(marker.name, fetcher.data.message);
    }
  }, [fetcher.data, marker.name, onSaveFailed]);

  const pending = fetcher.formData ? { x: Number(fetcher.formData.get("layout_x")), y: Number(fetcher.formData.get("layout_y")) } : null;
  const position = dragging ?? pending ?? marker;
  const placed = marker.placed || pending !== null;

  const save = (x: number, y: number) =>
    fetcher.submit({ intent: "move", id: String(marker.id), layout_x: String(x), layout_y: String(y) }, { method: "post" });

  const toCanvas = (event: PointerEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return clampToCanvas(
      ((event.clientX - rect.left) / rect.width) * CANVAS_WIDTH,
      ((event.clientY - rect.top) / rect.height) * CANVAS_HEIGHT,
    );
  };

  const handlers = editable
    ? {
        onPointerDown(event: PointerEvent<HTMLButtonElement>) {
          if (event.button !== 0) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          setDragging(toCanvas(event));
        },
        onPointerMove(event: PointerEvent<HTMLButtonElement>) {
          if (dragging) setDragging(toCanvas(event));
        },
        onPointerUp(event: PointerEvent<HTMLButtonElement>) {
          if (!dragging) return;
          const dropped = toCanvas(event);
          setDragging(null);
          save(dropped.x, dropped.y);
        },
        onPointerCancel() {
          setDragging(null);
        },
        onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
          const step = event.shiftKey ? 50 : 10;
          const moves: Record<string, [number, number]> = {
            ArrowLeft: [-step, 0],
            ArrowRight: [step, 0],
            ArrowUp: [0, -step],
            ArrowDown: [0, step],
          };
          const move = moves[event.key];
          if (!move) return;
          event.preventDefault();
          const next = clampToCanvas(position.x + move[0], position.y + move[1]);
          save(next.x, next.y);
        },
      }
    : {};

  const label = `${marker.name}${placed ? "" : " (not placed yet)"}`;
  return (
    <button
      type="button"
      data-testid={`plan-marker-${marker.id}`}
      data-x={position.x}
      data-y={position.y}
      aria-label={editable ? `${label}: drag, or use the arrow keys, to move it` : label}
      title={label}
      className={`absolute flex -translate-x-1/2 -translate-y-1/2 touch-none items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium shadow ${
        placed ? "border-indigo-700 bg-indigo-600 text-white" : "border-dashed border-slate-500 bg-white/90 text-slate-700"
      } ${editable ? "cursor-move focus:outline-none focus:ring-2 focus:ring-amber-400" : "cursor-default"} ${dragging ? "z-10 opacity-80" : ""}`}
      style={{ left: percent(position.x, CANVAS_WIDTH), top: percent(position.y, CANVAS_HEIGHT) }}
      {...handlers}
    >
      <span aria-hidden className={`inline-block h-2 w-2 rounded-full ${placed ? "bg-white" : "bg-slate-500"}`} />
      {marker.name}
    </button>
  );
}

/** Heat around each placed access point: radius 100 canvas pixels, colour and strength by its share of the busiest. */
function HeatLayer({ points }: { points: HeatPoint[] }) {
  const busiest = Math.max(1, ...points.map((p) => p.connections));
  return (
    <svg
      viewBox={`0 0 ${CANVAS_WIDTH} ${CANVAS_HEIGHT}`}
      preserveAspectRatio="none"
      className="pointer-events-none absolute inset-0 h-full w-full"
      aria-hidden
      data-testid="heat-layer"
    >
      <defs>
        {points.map((p) => {
          const share = p.connections / busiest;
          const hue = Math.round(240 * (1 - share)); // blue (quiet) to red (busiest)
          return (
            <radialGradient key={p.id} id={`heat-${p.id}`}>
              <stop offset="0%" stopColor={`hsl(${hue} 90% 50%)`} stopOpacity={p.connections ? 0.25 + 0.55 * share : 0.12} />
              <stop offset="100%" stopColor={`hsl(${hue} 90% 50%)`} stopOpacity={0} />
            </radialGradient>
          );
        })}
      </defs>
      {points.map((p) => (
        <circle key={p.id} cx={p.x} cy={p.y} r={HEATMAP_RADIUS} fill={`url(#heat-${p.id})`} />
      ))}
    </svg>
  );
}
