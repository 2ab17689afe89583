// Due times count China's working days (make-up Saturdays included, holidays
// and days in lieu not); departure risk compares working days left.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ORDER_STEP_VALUES, ORDER_STEPS } from '../../../common/order.ts';
import { departureAtRisk, dueAfterWorkingDays, isChinaWorkingDay, STEP_SLA, stepDueAt } from './sla.ts';

const at = (iso: string) => Date.parse(iso);

describe('service levels', () => {
  it('is due at 24:00 China time of the N-th working day after the day entered', () => {
    // Tuesday 1 December 2026, 10:00 → Wednesday 24:00.
    expect(dueAfterWorkingDays(at('2026-12-01T10:00:00+08:00'), 1)).toBe(at('2026-12-03T00:00:00+08:00'));
    // Friday → Monday 24:00.
    expect(dueAfterWorkingDays(at('2026-12-04T23:30:00+08:00'), 1)).toBe(at('2026-12-08T00:00:00+08:00'));
    expect(stepDueAt('reupload_needed', at('2026-12-01T10:00:00+08:00'), 0)).toBe(at('2026-12-05T00:00:00+08:00'));
    // Interview: 10 working days, Tuesday 1 December → the end of Tuesday 15 December.
    expect(stepDueAt('interview', at('2026-12-01T10:00:00+08:00'), 0)).toBe(at('2026-12-16T00:00:00+08:00'));
    expect(stepDueAt('submitted', at('2026-12-01T10:00:00+08:00'), 2)).toBe(at('2026-12-04T00:00:00+08:00'));
  });

  it('skips China’s holidays and counts its make-up working weekends', () => {
    // National Day 2026 (chinese-days): 1–7 October off, Saturday 10 October a make-up working day.
    expect(isChinaWorkingDay('2026-10-05')).toBe(false);
    expect(isChinaWorkingDay('2026-10-10')).toBe(true);
    // Entered on 30 September: due at the end of 8 October, the first working day after the holiday.
    expect(dueAfterWorkingDays(at('2026-09-30T15:00:00+08:00'), 1)).toBe(at('2026-10-09T00:00:00+08:00'));
    // Entered Friday 9 October with 1: the make-up Saturday counts.
    expect(dueAfterWorkingDays(at('2026-10-09T15:00:00+08:00'), 1)).toBe(at('2026-10-11T00:00:00+08:00'));
  });

  it('flags a departure with fewer working days left than the processing still needs', () => {
    const now = at('2026-12-01T10:00:00+08:00');
    const order = { status: 'processing', step: 'material_review' as const, step_entered_at: now };
    // 2–4 December: three working days before the 4th? [1, 4) = Tue, Wed, Thu = 3.
    expect(departureAtRisk({ ...order, departure_date: '2026-12-04' }, 5, now)).toBe(true);
    expect(departureAtRisk({ ...order, departure_date: '2026-12-31' }, 5, now)).toBe(false);
    expect(departureAtRisk({ ...order, departure_date: '2026-11-30' }, 5, now)).toBe(true);
    expect(departureAtRisk({ ...order, step: 'returning', departure_date: '2026-12-02' }, 5, now)).toBe(false);
    // Submitted 3 working days ago with 5 needed: 2 left; two working days to the departure is enough.
    const submitted = { status: 'processing', step: 'submitted' as const, step_entered_at: at('2026-11-26T10:00:00+08:00') };
    expect(departureAtRisk({ ...submitted, departure_date: '2026-12-03' }, 5, now)).toBe(false);
    expect(departureAtRisk({ ...submitted, departure_date: '2026-12-02' }, 5, now)).toBe(true);
  });
});

describe("docs/order-rules.md's service-level table", () => {
  // The table is written by hand (its "who acts" column is prose): this keeps
  // its steps, labels and working days equal to STEP_SLA, so a new step or a
  // changed allowance fails here instead of leaving the rules document behind.
  it('has one row per step, with its label and its working days as STEP_SLA says', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/order-rules.md', import.meta.url)), 'utf8');
    const rows = new Map(
      doc
        .split('\n')
        .filter((line) => /^\| [a-z_]+ \| /.test(line))
        .map((line) => line.split('|').map((cell) => cell.trim()))
        .filter((cells) => (ORDER_STEP_VALUES as string[]).includes(cells[1]!))
        .map((cells) => [cells[1]!, { label: cells[2]!, days: cells[4]! }]),
    );
    expect([...rows.keys()]).toEqual(ORDER_STEP_VALUES);
    for (const step of ORDER_STEP_VALUES) {
      const sla = STEP_SLA[step];
      expect(rows.get(step)!.label, step).toBe(ORDER_STEPS[step]);
      if (typeof sla === 'number') expect(rows.get(step)!.days, step).toBe(String(sla));
      else if (sla === 'product') expect(rows.get(step)!.days, step).toMatch(/need_days/);
      else expect(rows.get(step)!.days, step).toBe('—');
    }
  });
});
