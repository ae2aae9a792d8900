// Browser-test helpers for splash pages: the console's steps every test repeats
// (create a page, set it up, publish it), a network's own page set straight in the database, a
// tiny PNG written to a temporary file, and the page's public key for its "View page" address.
// The organisation, network and access point come from portal-fixtures.ts's makePortal.
import { writeFile } from "node:fs/promises";
import zlib from "node:zlib";
import type { Page } from "@playwright/test";
import { clickAndConfirm } from "./confirm";
import { expect, test } from "./fixtures";

const { db } = await import("~/db/db.server");

export const PUBLISHED = "Splash page published: guests see it from now on.";

export const isNoJs = () => test.info().project.name === "no-js";

/** The network's own splash page (network settings → Guest portal → Splash page), set directly. */
export async function useAsNetworkPage(venueId: number, pageId: number) {
  await db.updateTable("venues").set({ splash_page_id: pageId }).where("id", "=", venueId).execute();
}

export async function publicKeyOf(pageId: number): Promise<string> {
  const row = await db.selectFrom("splash_pages").select("public_key").where("id", "=", pageId).executeTakeFirstOrThrow();
  return row.public_key;
}

/** The page id in a details URL (/{orgId}/splash_pages/{pageId}/…). */
export function pageIdOf(page: Page): number {
  const match = /\/splash_pages\/(\d+)(?:\/|$)/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not a splash page's address: ${page.url()}`);
  return Number(match[1]);
}

/** New page → the create form → the set-up screen; returns the page's id. */
export async function createPage(page: Page, orgId: number, name: string, description = ""): Promise<number> {
  await page.goto(`/${orgId}/splash_pages`);
  await page.getByRole("link", { name: "New page" }).click();
  await expect(page).toHaveURL(`/${orgId}/splash_pages/create`);
  await page.getByLabel("Page name").fill(name);
  if (description) await page.getByLabel("Description").fill(description);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("heading", { name: "Set up the page" })).toBeVisible();
  return pageIdOf(page);
}

/** The set-up screen's "Code editor" choice: lands on the HTML tab. */
export async function setUpAsCode(page: Page, orgId: number, pageId: number) {
  await page.getByRole("button", { name: "Code editor", exact: true }).click();
  await expect(page).toHaveURL(`/${orgId}/splash_pages/${pageId}/html`);
  await expect(page.getByText("The page uses the code editor.")).toBeVisible();
}

/**
 * Replaces a code tab's text and saves it with Save: the textarea without JavaScript, CodeMirror
 * with it (text inserted as typed input; insertText does not trigger HTML tag auto-closing).
 */
export async function saveCode(page: Page, label: string, text: string, saved: string) {
  if (isNoJs()) {
    await page.getByLabel(label).fill(text);
  } else {
    const editor = page.getByRole("textbox", { name: label });
    await expect(editor).toHaveClass(/cm-content/);
    await editor.click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText(text);
  }
  await page.getByRole("button", { name: "Save", exact: true }).click();
  // With JavaScript, pressing Save also takes the focus from the editor, which saves too: two messages.
  await expect(page.getByText(saved, { exact: true }).first()).toBeVisible();
}

/** Publish in the details header, after the confirmation; the header then offers View page. */
export async function publish(page: Page, name: string) {
  const question = await clickAndConfirm(page, page.getByRole("button", { name: "Publish" }));
  expect(question).toBe(`Publish ${name}? Guests see this version from now on.`);
  await expect(page.getByText(PUBLISHED)).toBeVisible();
  await expect(page.getByRole("link", { name: "View page" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8×6 PNG (RGB, one colour) written to the test's output folder; returns its path. */
export async function writeTinyPng(fileName = "kahawa-logo.png"): Promise<string> {
  const width = 8;
  const height = 6;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0x7c, 0x2d, 0x12]))]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  const path = test.info().outputPath(fileName);
  await writeFile(path, png);
  return path;
}
