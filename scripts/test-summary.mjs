// Prints one closing line over both test runners: "Tests: N passed, N failed, N skipped".
import fs from "node:fs";

function read(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const vitest = read("test-results/vitest.json");
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
} else failed += 1;
const playwright = read("test-results/playwright.json");
if (playwright) {
  passed += playwright.stats.expected;
  failed += playwright.stats.unexpected;
  skipped += playwright.stats.skipped;
} else failed += 1;
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
