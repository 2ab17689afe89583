// Where scripts/antd-styles.tsx writes antd's stylesheets (read by vite.config.ts too).
export const OUTPUT_DIR = 'app/generated/antd';
/** Every style entry the files cover (the server inlines only the others). */
export const STATIC_KEYS_FILE = `${OUTPUT_DIR}/keys.json`;

/** The stylesheet of a route module (app/routes/home.tsx → app/generated/antd/routes/home.css). */
export function stylesheetOf(moduleFile: string): string {
  return `${OUTPUT_DIR}/${moduleFile.replace(/^app\//, '').replace(/\.tsx?$/, '')}.css`;
}
