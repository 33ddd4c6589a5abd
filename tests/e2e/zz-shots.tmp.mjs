import { startApp, runTo } from "./helpers.mjs";
for (const width of [390, 1920]) {
  const app = await startApp({ viewport: { width, height: 900 } });
  await runTo(app.page, 20);
  const brokers = app.page.locator("#brokers");
  await brokers.screenshot({ path: `/tmp/shots/brokers-${width}.png` });
  await app.page.screenshot({ path: `/tmp/shots/page-${width}.png`, fullPage: false });
  console.log(width, await app.page.locator("#kafka-version").textContent(), app.problems());
  await app.close();
}
