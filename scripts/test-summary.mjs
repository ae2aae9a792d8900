// Prints one closing line over both test runners: "Tests: N passed, N failed, N skipped",
// after the names of the failed tests (CI keeps only the tail of the output).
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
const failures = [];
const vitest = read("test-results/vitest.json");
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  for (const file of vitest.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === "failed") failures.push(`vitest ${file.name.replace(process.cwd() + "/", "")} › ${test.fullName}`);
    }
  }
} else failed += 1;
const playwright = read("test-results/playwright.json");
if (playwright) {
  passed += playwright.stats.expected;
  failed += playwright.stats.unexpected;
  skipped += playwright.stats.skipped;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "unexpected")
          failures.push(`playwright [${test.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith(".ts") ? [...titles, child.title] : titles);
  };
  for (const suite of playwright.suites ?? []) walk(suite, []);
} else failed += 1;
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
