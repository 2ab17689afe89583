// The client's file name is only a label: kept for display, cleaned of
// paths, control and direction-override characters (all the text rule
// refuses, and zero-width ones), bounded in length, and
// never used as a storage key. When served back, the name ends with the
// extension of the detected type, so "cv.html" that is really a PDF is
// offered as "cv.html.pdf".
import { withoutRefusedCharacters } from '../../../common/contracts/text.ts';
import { MATERIAL_LIMITS, type MaterialContentType } from '../../../common/material.ts';
import { EXTENSIONS } from './file-type.ts';

// Control characters are exactly what this pattern is for.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff"<>|:*?]/g;
export const UNNAMED = '未命名文件';

export function cleanFileName(raw: string | undefined | null): string {
  const base = (raw ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  // What the text rule refuses (common/contracts/text.ts: U+061C and lone surrogates too) is dropped: a name is cleaned, not refused.
  const name = withoutRefusedCharacters(base.replace(UNSAFE, '')).replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  if (name === '') return UNNAMED;
  const chars = [...name];
  if (chars.length <= MATERIAL_LIMITS.fileNameMaxLength) return name;
  // Too long: keep the end (the extension) and shorten the stem.
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  return chars.slice(0, MATERIAL_LIMITS.fileNameMaxLength - [...extension].length).join('') + extension;
}

/** The name offered to the browser: cleaned, ending with the real type's extension. */
export function downloadName(fileName: string, contentType: MaterialContentType): string {
  const name = cleanFileName(fileName);
  const extension = EXTENSIONS[contentType];
  const matches = contentType === 'image/jpeg' ? /\.jpe?g$/i.test(name) : name.toLowerCase().endsWith(extension);
  return matches ? name : `${name}${extension}`;
}

/** Content-Disposition: inline, an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(fileName: string, contentType: MaterialContentType): string {
  const name = downloadName(fileName, contentType);
  const ascii = name.replace(/[^A-Za-z0-9._ -]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
