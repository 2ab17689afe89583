import { describe, expect, it } from 'vitest';
import type { TravellerView } from '../../../common/contracts/traveller';
import { applicantFromTraveller, pinyinError, saveMode, travellerOf, travellersToSave } from './save-from-order';

const ZHANG: TravellerView = {
  traveller_id: 7,
  name: '张三',
  pinyin: 'ZHANG SAN',
  sex: 'M',
  birth_date: '1990-05-01',
  mobile_phone: '13800138001',
  email: null,
  identity_id: 0,
  identity_label: '在职人员',
  passport_no: 'E12345678',
  passport_expiry: '2031-01-01',
  consent_at: 0,
  documents: [],
  updated_at: 0,
};

describe('saving an order’s applicant as a saved traveller', () => {
  it('offers 保存 for a new person, nothing for the unchanged picked one, 更新 once it changed', () => {
    expect(saveMode({ name: '李四', mobile_phone: '13800138002' }, [ZHANG])).toBe('new');
    const picked = applicantFromTraveller(ZHANG);
    expect(saveMode(picked, [ZHANG])).toBe('same');
    expect(saveMode({ ...picked, passport_expiry: '2036-01-01' }, [ZHANG])).toBe('update');
    // Renamed after picking: still that traveller (by id), an update.
    expect(travellerOf({ ...picked, name: '张叁' }, [ZHANG])?.traveller_id).toBe(7);
    // Typed by hand with the same name and mobile ("138 0013 8001"): that traveller, never a duplicate.
    expect(saveMode({ name: ' 张三 ', mobile_phone: '138 0013 8001', identity_id: 0, passport_no: 'e12345678', passport_expiry: '2031-01-01' }, [ZHANG])).toBe(
      'same',
    );
  });

  it('sends the ticked ones only, with the consent, naming the traveller on an update', () => {
    const picked = { ...applicantFromTraveller(ZHANG), passport_no: 'ea7654321', save_traveller: true, traveller_consent: true };
    const scanned = {
      name: '李四',
      identity_id: 1,
      mobile_phone: '13800138002',
      pinyin: 'li  si',
      sex: 'F' as const,
      birth_date: '1992-03-04',
      save_traveller: true,
      traveller_consent: true,
    };
    const unticked = { name: '王五', identity_id: 0, mobile_phone: '13800138003' };
    const wanted = travellersToSave([picked, scanned, unticked], [ZHANG]);
    expect(wanted.map((w) => [w.name, w.mode])).toEqual([
      ['张三', 'update'],
      ['李四', 'new'],
    ]);
    expect(wanted[0]!.payload).toMatchObject({ traveller_id: 7, passport_no: 'EA7654321', pinyin: 'ZHANG SAN', consent: true });
    expect(wanted[1]!.payload).toEqual({
      name: '李四',
      pinyin: 'LI SI',
      sex: 'F',
      birth_date: '1992-03-04',
      mobile_phone: '13800138002',
      email: null,
      identity_id: 1,
      passport_no: null,
      passport_expiry: null,
      consent: true,
    });
  });

  it('checks the pinyin like the server', () => {
    expect(pinyinError('zhang san')).toBeNull();
    expect(pinyinError('')).toBe('请输入姓名拼音');
    expect(pinyinError('张三')).toMatch(/只能是字母/);
  });
});
