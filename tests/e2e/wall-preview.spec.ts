import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';

const chromium = '/usr/bin/chromium';
const screenshots = path.join('tests', 'e2e', 'screenshots');

test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

test.beforeEach(async ({ page }) => {
  await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
});

// A landscape painting (92 × 74 cm): its canvases are painted wide, 70 × 50 for the 50x70 size.
const slug = 'the-starry-night';

async function width(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box.width;
}

async function shoot(page: Page, preview: Locator, name: string) {
  mkdirSync(screenshots, { recursive: true });
  await preview.evaluate(async (el) => {
    await Promise.all(Array.from(el.querySelectorAll('img')).map((img) => img.decode().catch(() => undefined)));
  });
  await page.waitForTimeout(300); // the size transition
  await preview.screenshot({ path: path.join(screenshots, name) });
}

/** A 1200 × 800 photo of a plain wall with a door, drawn in the browser. */
async function wallPhoto(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 1200;
    canvas.height = 800;
    const g = canvas.getContext('2d')!;
    const wall = g.createLinearGradient(0, 0, 1200, 800);
    wall.addColorStop(0, '#d9d2c3');
    wall.addColorStop(1, '#c8bfae');
    g.fillStyle = wall;
    g.fillRect(0, 0, 1200, 700);
    g.fillStyle = '#8a6a4f';
    g.fillRect(0, 700, 1200, 100);
    g.fillStyle = '#f2eee6';
    g.fillRect(360, 230, 360, 470);
    g.strokeStyle = '#b9af9d';
    g.lineWidth = 6;
    g.strokeRect(360, 230, 360, 470);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

test.describe('see it on your wall', () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`hangs the chosen size and frame at true scale in each room (${viewport.width} px)`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const problems: string[] = [];
      page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`/en/artworks/${slug}`);
      const preview = page.getByTestId('wall-preview');
      await expect(preview).toBeVisible();
      await preview.scrollIntoViewIfNeeded();
      const scene = preview.getByTestId('wall-scene');
      const canvas = preview.getByTestId('wall-canvas');

      // The room is 400 cm of wall: a 70 cm wide canvas is 70/400 of the picture's width.
      await expect.poll(async () => (await width(canvas)) / (await width(scene))).toBeCloseTo(70 / 400, 2);

      await page.locator('input[name="order-size"][value="30x40"]').check();
      await expect.poll(async () => (await width(canvas)) / (await width(scene))).toBeCloseTo(40 / 400, 2);
      const small = await width(canvas);
      await page.locator('input[name="order-size"][value="90x120"]').check();
      await expect.poll(async () => (await width(canvas)) / small).toBeCloseTo(120 / 40, 1);

      // The frame changes the look: a moulding around the same canvas.
      const painting = scene.locator('[data-frame]');
      await expect(painting).toHaveAttribute('data-frame', 'stretched');
      // Stretched: the canvas is the whole face; framed: 5 cm of moulding on each side (130 around 120).
      await expect.poll(async () => (await width(painting)) / (await width(canvas))).toBeCloseTo(1, 2);
      await page.locator('input[name="order-frame"][value="framed"]').check();
      await expect(painting).toHaveAttribute('data-frame', 'framed');
      await expect.poll(async () => (await width(painting)) / (await width(canvas))).toBeCloseTo(130 / 120, 2);
      const framedLook = await painting.evaluate((el) => getComputedStyle(el).backgroundImage);
      await page.locator('input[name="order-frame"][value="rolled"]').check();
      await expect(painting).toHaveAttribute('data-frame', 'rolled');
      expect(await painting.evaluate((el) => getComputedStyle(el).backgroundImage)).not.toBe(framedLook);

      await page.locator('input[name="order-size"][value="60x90"]').check();
      await page.locator('input[name="order-frame"][value="framed"]').check();
      for (const [tab, room] of [
        ['Living room', 'living'],
        ['Bedroom', 'bedroom'],
        ['Office', 'office'],
      ] as const) {
        await preview.getByRole('tab', { name: tab }).click();
        await expect(scene).toHaveAttribute('data-room', room);
        await expect.poll(async () => (await width(canvas)) / (await width(scene))).toBeCloseTo(90 / 400, 2);
        await shoot(page, preview, `wall-${room}-${viewport.width}.png`);
      }
      // The page hydrates cleanly (a mismatch would make React redraw it in the browser).
      expect(problems.filter((p) => /hydrat|#418|#423|#425/i.test(p))).toEqual([]);
    });
  }

  test('scales the painting on the shopper’s own wall photo from a marked length', async ({ page }) => {
    await page.goto(`/en/artworks/${slug}`);
    const preview = page.getByTestId('wall-preview');
    await expect(preview).toBeVisible();
    await preview.scrollIntoViewIfNeeded();
    await preview.getByRole('tab', { name: 'Your wall' }).click();
    await shoot(page, preview, 'wall-own-empty-1280.png');

    await preview.getByLabel('Choose a photo of your wall').setInputFiles({ name: 'wall.png', mimeType: 'image/png', buffer: await wallPhoto(page) });
    const scene = preview.getByTestId('wall-scene');
    await expect(scene).toHaveAttribute('data-room', 'own');
    // No length yet: nothing is drawn at a made-up scale.
    await expect(preview.getByTestId('wall-canvas')).toHaveCount(0);

    // The handles start 30 % → 60 % across the 1200 px photo: 360 px, the door's width.
    await preview.getByLabel('Length of the marked line, in cm').fill('80');
    const canvas = preview.getByTestId('wall-canvas');
    // 80 cm over 360 px: 4.5 px a centimetre; the 70 cm canvas is 315 of the photo's 1200 px.
    await expect.poll(async () => (await width(canvas)) / (await width(scene))).toBeCloseTo(315 / 1200, 2);
    await shoot(page, preview, 'wall-own-1280.png');

    // The same line said to be twice as long: the painting is drawn half as wide.
    await preview.getByLabel('Length of the marked line, in cm').fill('160');
    await expect.poll(async () => (await width(canvas)) / (await width(scene))).toBeCloseTo(315 / 2400, 2);

    // Dragging a handle to mark a longer line (60 % → 90 %, 720 px) at 160 cm doubles it back.
    const handle = preview.getByTestId('wall-handle-b');
    const box = (await handle.boundingBox())!;
    const sceneBox = (await scene.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(sceneBox.x + sceneBox.width * 0.9, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await width(canvas)) / (await width(scene))).toBeCloseTo(315 / 1200, 2);

    // The painting goes where it is dragged, and moves with the arrow keys.
    const painting = preview.getByRole('button', { name: /The painting/ });
    const before = (await painting.boundingBox())!;
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await page.mouse.down();
    await page.mouse.move(before.x + before.width / 2 - 100, before.y + before.height / 2 + 40, { steps: 6 });
    await page.mouse.up();
    const after = (await painting.boundingBox())!;
    expect(after.x).toBeLessThan(before.x - 80);
    await painting.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await painting.boundingBox())!.x).toBeGreaterThan(after.x + 5);

    // The size picker still drives it.
    await page.locator('input[name="order-size"][value="30x40"]').check();
    await expect.poll(async () => (await width(canvas)) / (await width(scene))).toBeCloseTo((40 * 4.5) / 1200, 2);
    await page.locator('input[name="order-size"][value="50x70"]').check();
    await shoot(page, preview, 'wall-own-moved-1280.png');

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(preview).toBeVisible();
    await preview.scrollIntoViewIfNeeded();
    await shoot(page, preview, 'wall-own-390.png');
  });
});
