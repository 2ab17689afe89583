// npm run docs:lifecycle — writes the lifecycle diagram and event table into docs/order-rules.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { withLifecycleDoc } from '../server/modules/order/lifecycle-doc.ts';

const file = new URL('../docs/order-rules.md', import.meta.url);
writeFileSync(file, withLifecycleDoc(readFileSync(file, 'utf8')));
console.log('docs/order-rules.md: lifecycle section written');
