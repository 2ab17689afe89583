// What a file is, from its first bytes (magic numbers) only: the client's file
// name and declared type are never trusted. Only the three types a visa
// application needs are recognised.
import type { MaterialContentType } from '../../../common/material.ts';

const SIGNATURES: Array<{ type: MaterialContentType; bytes: number[] }> = [
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  // "%PDF-"
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
];

/** How many leading bytes detection needs (the longest signature). */
export const SNIFF_BYTES = Math.max(...SIGNATURES.map((signature) => signature.bytes.length));

export function detectContentType(head: Uint8Array): MaterialContentType | null {
  for (const { type, bytes } of SIGNATURES) {
    if (head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte)) return type;
  }
  return null;
}

/** The extension a safe download name gets for each type. */
export const EXTENSIONS: Record<MaterialContentType, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'application/pdf': '.pdf',
};
