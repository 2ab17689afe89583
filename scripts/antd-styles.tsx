// Before the build: antd's styles for our theme as static stylesheets, one
// per route module, which Vite gives hashed names (cached for a year). Pages no
// longer inline ~200 KB of antd's CSS-in-JS into every HTML answer, each page
// loads only the styles of what it shows, and the browser does not compute
// them again while hydrating: each file ends with antd's cache-path marker,
// which tells @ant-design/cssinjs that those styles come from a file
// (decision 0014).
//   app/generated/antd/root.css          what app/root.tsx renders everywhere (none now: antd
//                                         lives in the scopes of the screens that render it)
//   app/generated/antd/routes/<name>.css  what that route module adds (a layout
//                                         counts its child routes as its own)
// vite.config.ts links each file from its route module. Which components: the
// names a module imports from 'antd', in it and in what it imports statically
// (found in the source, so a component added tomorrow is covered by the next
// build), each rendered once with its sub-components and popup panel. A style
// the files lack still works: the server inlines it and antd injects it in the
// browser, both with the page's CSP nonce (app/entry.server.tsx).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import * as antd from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ComponentType, ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import routes from '../app/routes.ts';
import { theme } from '../app/theme.ts';
import { OUTPUT_DIR, STATIC_KEYS_FILE, stylesheetOf } from './antd-styles-paths.ts';
import { staticClosure } from './static-imports.ts';

/** Components imported from 'antd' by these modules and everything they import. */
function antdNamesReachable(entries: string[]): { names: Set<string>; files: Set<string> } {
  const files = staticClosure(entries, 'app');
  const names = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'antd'/g)) {
      if (match[1]) continue;
      for (const part of match[2]!.split(',')) {
        const name = part
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim();
        if (/^[A-Z]/.test(name) || name === 'message' || name === 'notification') names.add(name);
      }
    }
  }
  return { names, files };
}

interface RouteEntry {
  file: string;
  children?: RouteEntry[];
}

function routeFiles(entries: RouteEntry[]): string[] {
  return entries.flatMap((entry) => [`app/${entry.file}`, ...routeFiles(entry.children ?? [])]);
}

type AnyComponent = ComponentType<Record<string, unknown>> & Record<string, unknown>;

/** Members that only render inside their parent (Form.ErrorList without a form registers a nameless style). */
const SKIP = new Set(['Form.ErrorList', 'Form.List', 'Form.Provider']);

// Props some components need before they render (and so register their styles).
const PROPS: Record<string, Record<string, unknown>> = {
  Anchor: { items: [{ key: 'a', href: '#a', title: 'a' }] },
  Collapse: { items: [{ key: 'a', label: 'a', children: 'a' }] },
  Descriptions: { items: [{ key: 'a', label: 'a', children: 'a' }] },
  Dropdown: { menu: { items: [{ key: 'a', label: 'a' }] }, children: <span>a</span> },
  Pagination: { total: 50 },
  Popconfirm: { title: 'a', children: <span>a</span> },
  Popover: { content: 'a', children: <span>a</span> },
  Segmented: { options: ['a', 'b'] },
  Steps: { items: [{ title: 'a' }, { title: 'b' }] },
  // A table with a row and a second page: its pagination, selection and sorter register their styles too
  // (an empty table renders none of them, and the back-office queue's 共 N 个订单 pager came out unstyled).
  Table: {
    columns: [{ title: 'a', dataIndex: 'a', key: 'a', sorter: true }],
    dataSource: [{ key: 1, a: 'a' }],
    rowSelection: {},
    pagination: { total: 50, pageSize: 10, showSizeChanger: true, showTotal: (total: number) => `${total}` },
  },
  Tabs: { items: [{ key: 'a', label: 'a', children: 'a' }] },
  Timeline: { items: [{ children: 'a' }] },
  Tooltip: { title: 'a', children: <span>a</span> },
};

const PRESET_COLORS = { blue: 1, purple: 1, cyan: 1, green: 1, magenta: 1, pink: 1, red: 1, orange: 1, yellow: 1, volcano: 1, geekblue: 1, lime: 1, gold: 1 };

/** Components whose styles are registered per variant: one rendering each. */
const VARIANTS: Record<string, Array<Record<string, unknown>>> = {
  Tag: ['success', 'processing', 'error', 'warning', 'default', ...Object.keys(PRESET_COLORS)].map((color) => ({ color, children: 'a' })),
};

function renderings(name: string): ReactNode[] {
  const component = (antd as unknown as Record<string, AnyComponent>)[name];
  if (!component || (typeof component !== 'function' && typeof component !== 'object')) return [];
  const Component = component;
  const props = PROPS[name] ?? {};
  const nodes: ReactNode[] = [
    <Component key={name} {...props} />,
    ...(VARIANTS[name] ?? []).map((variant, i) => <Component key={`${name}#${i}`} {...variant} />),
  ];
  // Sub-components (Typography.Title, Form.Item, Input.Password, …) and the
  // panel that stands for a component's popup (menus, pickers, dialogs).
  for (const [member, value] of Object.entries(component)) {
    if (!/^[A-Z_]/.test(member) || (typeof value !== 'function' && typeof value !== 'object') || value === null) continue;
    if (member.startsWith('_') && member !== '_InternalPanelDoNotUseOrYouWillBeFired') continue;
    if (SKIP.has(`${name}.${member}`)) continue;
    const Member = value as AnyComponent;
    nodes.push(<Member key={`${name}.${member}`} {...(member.startsWith('_') ? props : {})} />);
  }
  return nodes;
}

type StyleCache = ReturnType<typeof createCache>;

function render(names: string[]): { cache: StyleCache; failed: string[] } {
  const cache = createCache();
  const failed: string[] = [];
  for (const name of names) {
    for (const node of renderings(name)) {
      try {
        renderToString(
          <StyleProvider cache={cache}>
            <antd.ConfigProvider locale={zhCN} theme={theme}>
              <antd.App>{node}</antd.App>
            </antd.ConfigProvider>
          </StyleProvider>,
        );
      } catch {
        // Some members need a parent's context (Form.List, …); their styles come with the parent.
        failed.push(String((node as { key?: string }).key));
      }
    }
  }
  return { cache, failed };
}

const TYPES: Array<'style' | 'token' | 'cssVar'> = ['style', 'token', 'cssVar'];
const MARKER = /\.data-ant-cssinjs-cache-path\{content:"([^"]*)";\}/;

interface Group {
  /** The route module the stylesheet belongs to. */
  module: string;
  names: string[];
}

/** root.tsx, then each top-level route module (a layout with its children). */
function groups(): Group[] {
  const root = antdNamesReachable(['app/root.tsx']).names;
  const own = (entries: string[]) => [...antdNamesReachable(entries).names].filter((name) => !root.has(name)).sort();
  return [
    { module: 'app/root.tsx', names: [...root].sort() },
    ...(routes as RouteEntry[]).map((entry) => ({ module: `app/${entry.file}`, names: own(routeFiles([entry])) })),
  ];
}

export function generateAntdStyles() {
  const [root, ...rest] = groups();
  const rootRender = render(root!.names);
  const rootKeys = [...rootRender.cache.cache.keys()];
  const rootCss = extractStyle(rootRender.cache, { plain: true, types: TYPES });
  const rootMarker = MARKER.exec(rootCss)?.[1];
  const files = [{ file: stylesheetOf(root!.module), css: rootCss, names: root!.names }];
  const keys = new Set(rootKeys);
  for (const group of rest) {
    if (group.names.length === 0) continue;
    const { cache } = render([...root!.names, ...group.names]);
    for (const key of cache.cache.keys()) keys.add(key);
    // Only what root's file lacks, with a marker naming both: the browser reads
    // one marker, and a route's stylesheet comes after root's in the page.
    for (const key of rootKeys) cache.extracted.add(key);
    const own = extractStyle(cache, { plain: true, types: TYPES, once: true });
    const marker = [rootMarker, MARKER.exec(own)?.[1]].filter(Boolean).join(';');
    files.push({ file: stylesheetOf(group.module), css: own.replace(MARKER, `.data-ant-cssinjs-cache-path{content:"${marker}";}`), names: group.names });
  }
  return { files, keys: [...keys] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.env.NODE_ENV !== 'production') throw new Error('run with NODE_ENV=production: antd names its classes differently in development');
  // antd and rc-* warn about props omitted on purpose here.
  const quiet = console.error;
  console.error = () => {};
  const started = Date.now();
  const { files, keys } = generateAntdStyles();
  console.error = quiet;
  rmSync(OUTPUT_DIR, { recursive: true, force: true });
  const banner = '/* Generated by scripts/antd-styles.tsx from app/theme.ts: do not edit. */\n';
  for (const { file, css, names } of files) {
    // No antd at all (root: antd is in the scopes of the screens that render it,
    // app/components/antd-scope.tsx): no stylesheet, so no request for an empty one.
    if (names.length === 0) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${banner}${css}\n`);
  }
  writeFileSync(STATIC_KEYS_FILE, `${JSON.stringify(keys)}\n`);
  console.log(`antd styles in ${Date.now() - started} ms → ${OUTPUT_DIR}/`);
  for (const { file, css, names } of files)
    console.log(`  ${file.slice(OUTPUT_DIR.length + 1).padEnd(40)} ${(css.length / 1024).toFixed(0).padStart(4)} KiB  ${names.join(' ')}`);
}
