// The guest catalogue pages paint before their JavaScript loads
// (app/lib/paint-first.ts): nothing the visitor does before hydration is lost.
// The app's entry module is held back here so that the visitor surely acts first.
import { expect, type Page, test } from '@playwright/test';
import { hydrated, watchCsp } from './support';

/** Holds back the app's entry module until `release()`; reports CSP violations. */
async function slowHydration(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return { release, violations: watchCsp(page) };
}

test('a guest page carries no module preloads and runs its code after the first paint, within the CSP', async ({ page }) => {
  const { release, violations } = await slowHydration(page);
  const response = await page.goto('/');
  const html = await response!.text();
  expect(html).not.toContain('modulepreload');
  expect(html).not.toContain('type="module"');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  release();
  await hydrated(page);
  expect(violations).toEqual([]);
});

test('a logged-in screen and the back office keep their scripts as they were', async ({ page }) => {
  for (const path of ['/admin/login', '/about']) {
    const html = await (await page.request.get(path)).text();
    expect(html, path).toContain('modulepreload');
    expect(html, path).not.toContain('paint-first-app');
  }
});

test('a click on a button before hydration is clicked again once the page has hydrated', async ({ page }) => {
  const { release } = await slowHydration(page);
  await page.goto('/');
  await page.getByTestId('header-login').click();
  await page.waitForTimeout(300);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  release();
  await hydrated(page);
  await expect(page.getByRole('dialog').getByText('欢迎使用易签通')).toBeVisible();
});

test('a field filled before hydration reaches React once the page has hydrated', async ({ page }) => {
  const { release } = await slowHydration(page);
  await page.goto('/visa/continent');
  const cards = page.getByTestId('country-card');
  const before = await cards.count();
  await page.getByLabel('搜索国家').fill('不存在的国家xyz');
  release();
  await hydrated(page);
  await expect(page.getByText('没有找到匹配的国家')).toBeVisible();
  await expect(cards).toHaveCount(0);
  expect(before).toBeGreaterThan(0);
});

test('a click before hydration on a part hydrated after the rest of the page (a HydrationBoundary) is not lost', async ({ page }) => {
  // The product page's materials section hydrates after the page around it
  // (app/components/hydration-boundary.tsx); the click is replayed outside
  // React's effects, where React can hydrate that part at once and deliver it.
  const { release } = await slowHydration(page);
  await page.goto('/visa/product/1');
  const tab = page.getByRole('tab', { name: '退休人员' });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'false');
  release();
  await hydrated(page);
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  // The panel below shows the retired's materials (identity 2), not the employed's (0).
  await expect(page.locator('.pd-identity')).toHaveAttribute('data-identity', '2');
});

/**
 * Counts, through the hook React offers its DevTools (production builds call it
 * after every commit), how many times each component inside <main> rendered.
 * A fiber worked on in a commit is a new object in that commit's tree (React
 * alternates two copies); React marks it PerformedWork if its function ran.
 */
async function countRenders(page: Page) {
  await page.addInitScript(() => {
    interface Fiber {
      tag: number;
      flags: number;
      stateNode: unknown;
      child: Fiber | null;
      sibling: Fiber | null;
      alternate: Fiber | null;
    }
    const PERFORMED_WORK = 1;
    const FUNCTION_COMPONENT = 0;
    const HOST_COMPONENT = 5;
    // One counter per component instance, shared by its two fiber copies.
    const renders = new WeakMap<Fiber, { count: number }>();
    const all: Array<{ count: number }> = [];
    let previousTree = new Set<Fiber>();
    const stats = { commits: 0, lastCommit: 0, all };
    (window as unknown as { __renders: typeof stats }).__renders = stats;
    const inMain = (fiber: Fiber): boolean => {
      for (let child: Fiber | null = fiber.child; child; child = child.child) {
        if (child.tag === HOST_COMPONENT) return child.stateNode instanceof Element && child.stateNode.closest('main') !== null;
      }
      return false;
    };
    const walk = (first: Fiber | null, tree: Set<Fiber>) => {
      for (let fiber = first; fiber; fiber = fiber.sibling) {
        tree.add(fiber);
        if (fiber.tag === FUNCTION_COMPONENT && !previousTree.has(fiber) && fiber.flags & PERFORMED_WORK && inMain(fiber)) {
          let counter = renders.get(fiber) ?? (fiber.alternate && renders.get(fiber.alternate));
          if (!counter) {
            counter = { count: 0 };
            all.push(counter);
          }
          counter.count += 1;
          renders.set(fiber, counter);
        }
        walk(fiber.child, tree);
      }
    };
    (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      inject: () => 1,
      checkDCE: () => {},
      onCommitFiberUnmount: () => {},
      onPostCommitFiberRoot: () => {},
      onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
        stats.commits += 1;
        stats.lastCommit = performance.now();
        const tree = new Set<Fiber>();
        walk(root.current, tree);
        previousTree = tree;
      },
    };
  });
  return {
    /** Once no commit has come for a second: how many components rendered, and the most renders of one. */
    settled: async () => {
      await page.waitForFunction(() => {
        const stats = (window as unknown as { __renders: { commits: number; lastCommit: number } }).__renders;
        return stats.commits > 0 && performance.now() - stats.lastCommit > 1000;
      });
      return page.evaluate(() => {
        const { all } = (window as unknown as { __renders: { all: Array<{ count: number }> } }).__renders;
        return { components: all.length, mostRenders: Math.max(...all.map((c) => c.count)), renderedAgain: all.filter((c) => c.count > 1).length };
      });
    },
  };
}

test('a guest page renders what it shows once while it hydrates, however many parts hydrate after the rest', async ({ page }) => {
  // A router update while parts of the page still waited to hydrate (React
  // Router's lazy route discovery patched its routes after the first commit)
  // made React hydrate those parts one by one, re-rendering the whole page
  // each time: a country page rendered its 23 product cards some 350 times on
  // load. react-router.config.ts sends every route with the first page
  // instead (routeDiscovery 'initial'; decision 0014). A few parts render a
  // second time for a state of their own (on the product page the reminder box
  // measures whether its text overflows, the apply button learns the session).
  const renders = await countRenders(page);
  for (const path of ['/', '/visa/country/1', '/visa/product/1']) {
    await page.goto(path);
    const { components, mostRenders, renderedAgain } = await renders.settled();
    expect(components, path).toBeGreaterThan(20);
    expect(mostRenders, path).toBeLessThanOrEqual(2);
    expect(renderedAgain, path).toBeLessThanOrEqual(5);
  }
});
