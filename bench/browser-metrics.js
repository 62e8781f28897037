// In-page measurements for the page benchmark, the same for apipe's page and Swagger UI:
// - first screen: milliseconds from navigation start to the first frame in which the endpoint list is on screen;
// - keystroke: milliseconds from a key press in the search box to the next frame after the page reacted.
import {chromium} from 'playwright-core'

/** Launch Debian's Chromium headless, with the flags this closed network needs. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  })
}

/** Open `url` in a fresh page and time its first screen: the first frame where `selector` matches. */
export async function firstScreen(browser, url, selector) {
  const page = await browser.newPage({viewport: {width: 1280, height: 900}})
  await page.addInitScript((wanted) => {
    const check = () => {
      if (document.querySelector(wanted)) requestAnimationFrame(() => (window.__firstScreen = performance.now()))
      else requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
  }, selector)
  await page.goto(url, {waitUntil: 'commit'})
  await page.waitForFunction(() => window.__firstScreen !== undefined, undefined, {timeout: 60_000, polling: 50})
  const ms = await page.evaluate(() => window.__firstScreen)
  return {page, ms}
}

/**
 * Type `text` into `input` one key at a time, `repeat` times (the box emptied in between, unmeasured); resolves to
 * the mean ms from keydown to the next painted frame. Each sample includes the wait for the next frame (0 to
 * 16.7 ms at 60 Hz), so more samples make a steadier mean.
 */
export async function keystrokes(page, input, text, repeat = 3) {
  await page.click(input)
  await page.evaluate(() => {
    window.__keys = []
    document.addEventListener('keydown', () => {
      const start = performance.now()
      requestAnimationFrame(() => setTimeout(() => window.__keys.push(performance.now() - start), 0))
    }, true)
  })
  let count = 0
  for (let round = 0; round < repeat; round++) {
    if (round > 0) {
      await page.fill(input, '')
      await page.waitForTimeout(150)
    }
    for (const key of text) {
      await page.keyboard.type(key)
      await page.waitForFunction((wanted) => window.__keys.length >= wanted, ++count, {polling: 10})
      await page.waitForTimeout(60)
    }
  }
  const times = await page.evaluate(() => window.__keys)
  return times.reduce((sum, time) => sum + time, 0) / times.length
}

/**
 * Click each of `selectors` in turn (the row of an endpoint, or its summary in Swagger UI); resolves to the mean ms
 * from the click to the first frame painted after the last change the click made to the page (apipe renders its
 * panel on the `hashchange` the click causes, Swagger UI in React updates: both are caught by one MutationObserver).
 * `settle`, when given, is clicked after each measured click (unmeasured), to close what the click opened.
 */
export async function clicks(page, selectors, {settle} = {}) {
  await page.evaluate(() => {
    window.__click = {start: 0, painted: 0}
    document.addEventListener('click', () => {
      window.__click = {start: performance.now(), painted: 0}
    }, true)
    new MutationObserver(() => {
      const click = window.__click
      requestAnimationFrame(() => setTimeout(() => (click.painted = performance.now()), 0))
    }).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true})
  })
  const times = []
  for (const selector of selectors) {
    await page.click(selector)
    await page.waitForFunction(() => window.__click.painted > 0, undefined, {polling: 10})
    // Later changes (a second render) move `painted` on: wait until the page has been quiet for a while.
    await page.waitForTimeout(400)
    times.push(await page.evaluate(() => window.__click.painted - window.__click.start))
    if (settle) {
      await page.click(settle(selector))
      await page.waitForTimeout(300)
    }
  }
  return times.reduce((sum, time) => sum + time, 0) / times.length
}
