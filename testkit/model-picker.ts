/**
 * Choosing a model in a page as a user does: open the header's picker, type to narrow the list, click the model.
 * Tests name the model by provider and id (what they set up), not by its label, which is the page's to word.
 */
import type { Page } from "playwright-core";

export async function pickModel(page: Page, model: { provider: string; id: string }): Promise<void> {
  await page.getByTestId("model-picker").click();
  await page.getByTestId("model-picker-search").fill(model.id);
  await page.locator(`[role=option][data-value="${JSON.stringify([model.provider, model.id]).replace(/"/g, '\\"')}"]`).click();
  await page.getByTestId("model-picker-popover").waitFor({ state: "detached" });
}
