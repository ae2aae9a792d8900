// The dashboard's messages (docs/guide/dashboard.md#edit-mode, #messages), apart from the edit forms'
// schema (~/lib/schemas/dashboard) so the dashboard page can show them without carrying zod into its
// browser bundle.

export const DASHBOARD_MESSAGES = {
  layout: "Choose a layout for the new row.",
  dashlet: "Choose a dashlet for this cell.",
  node: "That part of the dashboard no longer exists. Reload the page to see your current dashboard.",
  saveFailed: "The dashboard could not be saved. Please try again.",
  invalidStored: "Your saved dashboard could not be read, so the default one is shown. Your next change replaces it.",
  noData: "No data available to export.",
} as const;
