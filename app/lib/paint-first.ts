// The guest catalogue pages (home, continent, country, product) paint before
// their JavaScript loads (decision 0014, "Issue 12 closing session"). The
// server-rendered page is complete and readable; React Router's <Scripts> would
// have the browser fetch ~40 modules (modulepreload, high priority) and run the
// module graph and React's hydration before the first paint. On a phone that
// JavaScript shares the slow link with the stylesheets, and Lighthouse counts
// every request finished before the paint: the first paint (= LCP) of these
// pages waited ~2.8 s for code that only makes buttons work.
//
// So, on those pages only (a route's `handle.paintFirst`), entry.server.tsx
// passes the rendered HTML through `paintFirst()`: the modulepreload links
// leave the page, React Router's inline module script becomes inert text, and
// a small inline script (same nonce) runs it after the first frame — or at
// once on the visitor's first pointerdown, touchstart, keydown or focus. The
// modules then load through their imports (a few round trips deeper, after the
// paint): putting the ~40 preload links back from script cost a long task
// (one Lighthouse run each: mobile TBT 270–1100 ms with them, 120–280 without). A
// click on a button that lands before hydration is held and clicked again
// once the root reports hydration (root.tsx dispatches `app:hydrated`), so no
// click is lost; links and a form's submit buttons keep their native action.
// A field typed into or chosen meanwhile gets its value to React the same way.
// Never for the logged-in screens or the back office, whose journeys click at once.

/** The id of the inert copy of React Router's module script. */
const INERT_ID = 'paint-first-app';

/** Runs in the browser (classic inline script with the page's nonce); plain ES5-ish on purpose: it is inserted as text. */
const BOOT = `(function () {
  var nonce = document.currentScript.nonce;
  var code = document.getElementById('${INERT_ID}').textContent;
  var started = false, hydrated = false, held = [];
  var wake = ['pointerdown', 'touchstart', 'keydown', 'focusin'];
  function boot() {
    if (started) return;
    started = true;
    wake.forEach(function (type) { removeEventListener(type, boot, true); });
    var script = document.createElement('script');
    script.type = 'module';
    script.nonce = nonce;
    script.textContent = code;
    document.body.appendChild(script);
  }
  wake.forEach(function (type) { addEventListener(type, boot, { capture: true, passive: true }); });
  addEventListener('click', function (event) {
    if (hydrated || !(event.target instanceof Element)) return;
    var target = event.target.closest('button,[role=button],[role=tab]');
    if (!target || (target.type === 'submit' && target.form)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (held.indexOf(target) < 0) held.push(target);
    boot();
  }, true);
  // A field edited before hydration: its last value is handed to React afterwards as one
  // input/change event. React keeps its own copy of a field's value (set through the
  // element's own value property) and fires onChange only when the DOM's differs from it:
  // so the copy is set to something else first, the DOM's value (prototype setter) to the
  // visitor's, then the event. Checkboxes and radios are left as they are.
  var edited = [];
  function remember(event) {
    var field = event.target;
    if (hydrated || !(field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement)) return;
    if (field.type === 'checkbox' || field.type === 'radio') return;
    edited = edited.filter(function (entry) { return entry.field !== field; });
    edited.push({ field: field, value: field.value, type: field instanceof HTMLSelectElement ? 'change' : 'input' });
    boot();
  }
  addEventListener('input', remember, true);
  addEventListener('change', remember, true);
  // The event comes from inside React's effects, where React cannot hydrate a part it
  // left for later (hydration-boundary.tsx) and so drops a click on it: replay in a task of its own.
  document.addEventListener('app:hydrated', function () {
    hydrated = true;
    setTimeout(replay, 0);
  }, { once: true });
  function replay() {
    edited.splice(0).forEach(function (entry) {
      var field = entry.field;
      if (!field.isConnected) return;
      field.value = entry.value === '' ? ' ' : '';
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value').set.call(field, entry.value);
      field.dispatchEvent(new Event(entry.type, { bubbles: true }));
    });
    held.splice(0).forEach(function (target) { if (target.isConnected) target.click(); });
  }
  if (document.visibilityState === 'hidden') boot();
  else requestAnimationFrame(function () { setTimeout(boot, 0); });
})`;

const MODULEPRELOAD = /<link rel="modulepreload" href="[^"]+"\/>/g;
const MODULE_SCRIPT = /<script nonce="([^"]+)" type="module" async="">([\s\S]*?)<\/script>/;

/**
 * The page with its JavaScript started after the first paint. Returns the HTML
 * unchanged when it does not have the shape React Router renders (one inline
 * module script with the nonce), so a change there degrades to today's page.
 */
export function paintFirst(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, nonce, code] = script;
  const inert = `<script nonce="${nonce}" type="text/x-paint-first" id="${INERT_ID}">${code}</script>`;
  const boot = `<script nonce="${nonce}">${BOOT}()</script>`;
  return html.replace(MODULEPRELOAD, '').replace(whole, () => inert + boot);
}
