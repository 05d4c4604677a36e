import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pixelmatch from 'pixelmatch';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';

/**
 * Screenshots compared with reference images committed under test/fixtures/web/. A missing
 * reference, or every reference when UPDATE_SCREENSHOTS=1 is set, is written from the
 * screenshot taken and the comparison passes: that is how references are made, to be looked at
 * and committed. Fonts render slightly differently from one machine to another, so a pixel
 * counts as differing only past pixelmatch's colour threshold, and a few may differ.
 */
const REFERENCE_DIR = resolve(import.meta.dirname, '../fixtures/web');

/** Where a failed comparison leaves the screenshot taken and the differing pixels marked in red. */
const FAILED_DIR = join(tmpdir(), 'arbiter-screenshots');

/**
 * Measured on the three boards: the same position twice differs by 0.000%, one move on by
 * 0.30-0.58% of the board's pixels. At most 0.2% may differ, so a single misdrawn move fails
 * while anti-aliasing (which pixelmatch leaves out) and small font differences pass.
 */
const TOLERANCE = {
  /** pixelmatch's per-pixel colour threshold, 0 (exact) to 1. */
  threshold: 0.2,
  /** The share of pixels that may differ, 0 to 1. */
  maxDiffering: 0.002,
};

export interface Comparison {
  reference: string;
  /** The reference was (re)written from this screenshot. */
  written: boolean;
  /** Why the screenshot does not match, with where to look; null when it does. */
  problem: string | null;
}

/** Compares a PNG screenshot with `test/fixtures/web/<name>.png`, writing that reference when it is missing or UPDATE_SCREENSHOTS=1. */
export function compareWithReference(name: string, screenshot: Buffer): Comparison {
  const reference = join(REFERENCE_DIR, `${name}.png`);
  if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(reference)) {
    mkdirSync(REFERENCE_DIR, { recursive: true });
    writeFileSync(reference, screenshot);
    return { reference, written: true, problem: null };
  }
  const actual = PNG.sync.read(screenshot);
  const expected = PNG.sync.read(readFileSync(reference));
  if (actual.width !== expected.width || actual.height !== expected.height) {
    const problem = `${name}: the screenshot is ${actual.width}×${actual.height}, the reference ${expected.width}×${expected.height} (screenshot: ${keep(`${name}.png`, screenshot)})`;
    return { reference, written: false, problem };
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const count = pixelmatch(actual.data, expected.data, diff.data, actual.width, actual.height, { threshold: TOLERANCE.threshold });
  const differing = count / (actual.width * actual.height);
  if (differing <= TOLERANCE.maxDiffering) return { reference, written: false, problem: null };
  const percent = (share: number) => `${(share * 100).toFixed(2)}%`;
  return {
    reference,
    written: false,
    problem: `${name}: ${percent(differing)} of the pixels differ from ${reference} (at most ${percent(TOLERANCE.maxDiffering)} may); screenshot: ${keep(`${name}.png`, screenshot)}, differences in red: ${keep(`${name}.diff.png`, PNG.sync.write(diff))}`,
  };
}

/** Leaves an image of a failed comparison where one can look at it; answers its path. */
function keep(name: string, png: Buffer): string {
  mkdirSync(FAILED_DIR, { recursive: true });
  const file = join(FAILED_DIR, name);
  writeFileSync(file, png);
  return file;
}

const DOCS = resolve(import.meta.dirname, '../../docs/screenshots');

/** With `DOCS_SCREENSHOTS=1`, writes the page, whole, at a desktop's width as docs/screenshots/<name>.png (docs/web-page.md shows them). */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  if (!process.env.DOCS_SCREENSHOTS) return;
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: join(DOCS, `${name}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
}
