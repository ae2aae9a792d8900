import { UNSAFE_defineRoutes as defineRoutes } from "@remix-run/dev";
import { expect, it } from "vitest";
import config from "../../remix.config.js";

// The organisation's pages are grouped by area in folders that add no URL segment ("_prepaid+/…",
// docs/conventions.md "Routes"). A file named "_something.tsx" at the top of such a folder is, for
// remix-flat-routes, that folder's layout: it would quietly wrap every page of the area.
it("has no layout route without a URL segment except the sign-in pages' one", async () => {
  const manifest = await config.routes!(defineRoutes);
  const pathlessLayouts = Object.values(manifest)
    .filter((route) => route.path === undefined && !route.index)
    .map((route) => route.id);
  expect(pathlessLayouts).toEqual(["routes/_auth+/_layout"]);
});
