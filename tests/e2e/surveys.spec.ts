// Surveys end to end, with JavaScript (enhanced) and without (no-js):
// an operator creates a survey (a question added and one removed on the way: conform's list intents
// post the form without JavaScript), edits it (Cancel restores, Save returns to the view), a guest who
// got online through the connect page answers it on the "online" page, the report shows the answers
// with a summary chart, surveys.csv and the page's XLSX download (the XLSX read back with exceljs), and
// the survey is deleted after the confirmation.
import ExcelJS from "exceljs";
import type { Page } from "@playwright/test";
import { clickAndConfirm } from "./confirm";
import { expect, signIn, test } from "./fixtures";
import { makeKnownGuest, mlangoEntry, randomMac, startFakeGateway } from "./portal-fixtures";
import { liveQuestions, makeSurveyOrg, responsesOf, surveyByTitle, SURVEY_MESSAGES, todayUtc } from "./surveys-fixtures";

async function fillQuestion(page: Page, n: number, text: string, type: string, options = "") {
  await page.getByLabel(`Question ${n}`, { exact: true }).fill(text);
  await page.getByLabel(`Question ${n} type`).selectOption(type);
  if (options) await page.getByLabel(`Question ${n} options`).fill(options);
}

test("an operator creates, edits and deletes a survey; a guest answers it; the report and both exports show the answers", async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(90_000);
  const setup = await makeSurveyOrg();
  const title = `Visit survey ${Date.now()}`;
  await signIn(context, setup.owner.id);

  // Create: no questions at first → the spec's message; one added, one removed, then saved.
  await page.goto(`/${setup.orgId}/surveys/create`);
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByRole("button", { name: "Remove question 1" }).click();
  await expect(page.getByLabel("Question 1", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Save survey" }).click();
  await expect(page.getByText(SURVEY_MESSAGES.atLeastOneQuestion)).toBeVisible();
  const add = page.getByRole("button", { name: "Add question" });
  await add.click();
  await fillQuestion(page, 1, "How was the Wi-Fi?", "rating");
  await add.click();
  await fillQuestion(page, 2, "A question to drop", "text");
  await add.click();
  await fillQuestion(page, 3, "What brought you here?", "multiple", "Coffee, Work, Friends");
  await page.getByRole("button", { name: "Remove question 2" }).click();
  await expect(page.getByLabel("Question 3", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Question 2", { exact: true })).toHaveValue("What brought you here?");
  await expect(page.getByLabel("Question 2 options")).toHaveValue("Coffee, Work, Friends");
  await page.getByLabel("Start date").fill(todayUtc());
  await page.getByLabel("End date").fill(todayUtc());
  await page.getByRole("button", { name: "Save survey" }).click();
  await expect(page).toHaveURL(new RegExp(`/${setup.orgId}/surveys$`));
  await expect(page.getByRole("status").filter({ hasText: SURVEY_MESSAGES.created })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row.getByText("Active")).toBeVisible();
  const survey = (await surveyByTitle(setup.orgId, title))!;
  expect((await liveQuestions(survey.id)).map((q) => [q.text, q.type, q.options])).toEqual([
    ["How was the Wi-Fi?", "rating", []],
    ["What brought you here?", "multiple", ["Coffee", "Work", "Friends"]],
  ]);

  // Edit: Cancel restores; Save returns to the view.
  await row.getByRole("link", { name: title }).click();
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await page.getByLabel("Title", { exact: true }).fill("Not this");
  await page.getByRole("link", { name: "Cancel", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await page.getByLabel("Description").fill("Two questions, one minute");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: SURVEY_MESSAGES.edited })).toBeVisible();
  await expect(page.getByText("Two questions, one minute")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);

  // A guest gets online through the connect page and answers on the online page (its own browser, no cookies).
  const gateway = await startFakeGateway();
  const clientMac = randomMac();
  await makeKnownGuest(setup.orgId, clientMac);
  const guestContext = await browser.newContext({ javaScriptEnabled: test.info().project.name !== "no-js" });
  const guest = await guestContext.newPage();
  try {
    // A make that vouches for the device, so the known guest is recognised (decision 0087).
    const entry = mlangoEntry(setup.venue.portalKey, gateway, setup.gatewaySecret, { apMac: setup.ap.mac, clientMac });
    await guest.goto(entry);
    await expect(guest).toHaveURL(/\/connect\?token=/);
    const token = new URL(guest.url()).searchParams.get("token")!;
    await guest.getByRole("button", { name: "Connect" }).click();
    await expect(guest.getByRole("heading", { name: "granted" })).toBeVisible();
    // The gateway sends the guest on to the continue URL: the online page.
    await guest.goto(`/connect/online?token=${token}`);
    await expect(guest.getByRole("heading", { name: "You are online" })).toBeVisible();
    await expect(guest.getByRole("heading", { name: title })).toBeVisible();
    await guest.getByLabel("4", { exact: true }).check();
    await guest.getByRole("radio", { name: "Work" }).check();
    await guest.getByRole("button", { name: "Send answers" }).click();
    await expect(guest.getByText("Thank you for your answers!")).toBeVisible();
    await guest.goto(`/connect/online?token=${token}`);
    await expect(guest.getByRole("heading", { name: title })).toHaveCount(0);
  } finally {
    await guestContext.close();
    await gateway.close();
  }
  expect((await responsesOf(survey.id)).map((r) => r.answer)).toEqual(["4", "Work"]);

  // The report: pick the survey, see the answers and the summary; both exports download.
  await page.goto(`/${setup.orgId}/surveys/report`);
  await expect(page.getByText(SURVEY_MESSAGES.selectSurvey)).toBeVisible();
  await page.getByLabel("Survey", { exact: true }).selectOption(String(survey.id));
  await page.getByRole("button", { name: "Show" }).click();
  const table = page.getByRole("table").last();
  await expect(table.getByRole("row").filter({ hasText: "What brought you here?" }).getByRole("cell", { name: "Work" })).toBeVisible();
  await expect(
    table.getByRole("row").filter({ hasText: "How was the Wi-Fi?" }).getByRole("cell", { name: "4", exact: true }),
  ).toBeVisible();
  await expect(page.getByText("Average rating: 4.00")).toBeVisible();
  await expect(page.locator("figure svg").first()).toBeVisible();

  const csvDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe("surveys.csv");
  const csvText = await (await import("node:fs/promises")).readFile((await csv.path())!, "utf8");
  expect(csvText.startsWith("\uFEFF")).toBe(true); // the byte-order mark Excel needs to read UTF-8
  expect(csvText.slice(1).split("\n")[0]).toBe("#,Question,Response,First Name,Last Name,Email,Phone Number,Answered At (UTC)");
  expect(csvText).toContain("What brought you here?,Work,");

  const xlsxDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export page (XLSX)" }).click();
  const xlsx = await xlsxDownload;
  expect(xlsx.suggestedFilename()).toBe("survey-responses-page-1.xlsx");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await xlsx.path())!);
  const sheet = workbook.getWorksheet("Survey Responses")!;
  expect(sheet.rowCount).toBe(3);
  const answers = [2, 3].map((r) => [sheet.getRow(r).getCell(2).value, sheet.getRow(r).getCell(3).value]);
  expect(answers).toEqual(
    expect.arrayContaining([
      ["How was the Wi-Fi?", 4], // a rating is a number the spreadsheet can average
      ["What brought you here?", "Work"],
    ]),
  );
  expect(sheet.getRow(1).getCell(8).value).toBe("Answered At (UTC)");

  // Delete, after the confirmation.
  await page.goto(`/${setup.orgId}/surveys`);
  const asked = await clickAndConfirm(
    page,
    page
      .getByRole("row")
      .filter({ hasText: title })
      .getByRole("button", { name: /Delete/ }),
  );
  expect(asked).toBe(SURVEY_MESSAGES.deleteQuestion);
  await expect(page.getByRole("status").filter({ hasText: "Survey deleted." })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: title })).toHaveCount(0);
  expect(await surveyByTitle(setup.orgId, title)).toBeUndefined();
});
