// GrapesJS's own stylesheet for the splash builder, as a URL for a route's `links()`. It lives apart
// from builder.client.tsx because a .client module's exports are undefined in the server build.
import grapesStyles from "grapesjs/dist/css/grapes.min.css";

export const builderStylesheet: string = grapesStyles;
