// The photo check remembers its recent verdicts: the same bytes against the
// same rule are not analysed twice (a re-upload, a saved traveller's photo
// reused), while another photo or another rule is. A detector of the test's
// own counts the analyses (it finds no face: the verdict is a quick fail).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { DetectedFace } from './face-detector.ts';
import { createPhotoChecks } from './photo-checks.ts';

const WHITE = { color: 1, width: 33, height: 48 };
const BLUE = { color: 0, width: 33, height: 48 };

async function photo(background: string): Promise<Buffer> {
  return sharp({ create: { width: 390, height: 567, channels: 3, background } })
    .jpeg()
    .toBuffer();
}

describe('photo check verdicts', () => {
  it('analyses a photo once per rule, and another photo again', async () => {
    let analyses = 0;
    const detector = async (): Promise<DetectedFace[]> => {
      analyses += 1;
      return [];
    };
    const checks = createPhotoChecks({} as never, { storage: {} as never, now: Date.now, log: { error() {} }, detector });
    const grey = await photo('#bbbbbb');

    const first = await checks.run(grey, WHITE);
    const again = await checks.run(Buffer.from(grey), WHITE);
    expect(first.verdict).toBe('fail');
    expect(again.verdict).toBe('fail');
    expect(again.analysis?.problems).toEqual(first.analysis?.problems);
    expect(analyses).toBe(1);

    await checks.run(grey, BLUE);
    expect(analyses).toBe(2);
    await checks.run(await photo('#999999'), WHITE);
    expect(analyses).toBe(3);
  });
});
