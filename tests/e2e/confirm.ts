import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * Clicks a button that asks for confirmation and confirms, whichever way the page asks:
 * the browser's confirm() with JavaScript, the server's confirmation step without it.
 * Returns the question that was asked.
 */
export async function clickAndConfirm(page: Page, button: ReturnType<Page["getByRole"]>): Promise<string> {
  if (test.info().project.name === "no-js") {
    await button.click();
    const prompt = page.getByRole("alertdialog");
    await expect(prompt).toBeVisible();
    const question = (await prompt.locator("#confirm-message").textContent()) ?? "";
    await prompt.getByRole("button", { name: "Yes, continue" }).click();
    return question.trim();
  }
  const asked = new Promise<string>((resolve) => {
    page.once("dialog", async (dialog) => {
      resolve(dialog.message());
      await dialog.accept();
    });
  });
  await button.click();
  return asked;
}
