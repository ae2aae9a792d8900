// ESLint for the whole tree: typescript-eslint's recommended rules (without type information, so a
// run takes seconds), React, the rules of hooks and jsx-a11y on the UI. Prettier owns layout, so no
// stylistic rule is on here.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "public/build/", "data/", "node_modules/", "test-results/", "playwright-report/", ".cache/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  { files: ["**/*.tsx"], ...react.configs.flat.recommended, settings: { react: { version: "18.3" } } },
  { files: ["**/*.tsx"], ...react.configs.flat["jsx-runtime"] },
  {
    // Migrations are written against Kysely<any> (they must not depend on today's table types), and
    // tests read JSON answers as Record<string, any>.
    files: ["app/db/migrations/**", "tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  // Playwright reads a fixture's dependencies from its first parameter, so `{}` means "none".
  { files: ["tests/e2e/**"], rules: { "no-empty-pattern": "off" } },
  {
    files: ["**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // A label's text may sit in nested spans (name and description).
      "jsx-a11y/label-has-associated-control": ["error", { depth: 3 }],
      // TypeScript checks props; prop-types would only repeat it.
      "react/prop-types": "off",
      // Apostrophes and quotes in text are fine in JSX; only the characters that hint at a typo are not.
      "react/no-unescaped-entities": ["error", { forbid: [">", "}"] }],
    },
  },
);
