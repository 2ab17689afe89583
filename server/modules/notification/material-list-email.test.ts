// The material-list e-mail from a hand-made product detail.
import { describe, expect, it } from 'vitest';
import type { VisaProductDetail } from '../../../common/contracts/catalogue.ts';
import { PHOTO_AUTO_CHECK_NOTE, PHOTO_GUIDANCE, escapeHtml, renderMaterialListEmail } from './material-list-email.ts';

const SITE = 'https://www.yiqiantong.example/';

function product(overrides: Partial<VisaProductDetail> = {}): VisaProductDetail {
  return {
    visa_product_id: 42,
    status: 0,
    channel: 0,
    offline: true,
    visa_country_id: 3,
    country: '日本',
    country_iso_code: 'JP',
    visa_type: '旅游签证',
    visa_type_id: 1,
    entry_times: 0,
    entry_label: '单次入境',
    product_special_desc: '',
    need_days_detail: '约7个工作日',
    continent_id: 0,
    consular_district: { consular_district_id: 1, name: '上海领区' },
    pass_rate: 9980,
    sum_score: 490,
    reviews: 100,
    sell_price: 39900,
    distributor_discount: null,
    basic_info: [],
    common_info: [],
    reject_refund_set: { status: 1 },
    procedure: [],
    handle_process: [],
    reminder: '',
    visa_photo_id: 5,
    photo_param: { color: 1, width: 45, height: 45 },
    identity_material: [
      {
        identity_id: 0,
        material_required: [
          { material_id: 1, attr: 0, elec_name: '护照首页扫描件', attention: '有效期6个月以上\n至少2页空白页', sample: '/static/samples/passport.jpg' },
          { material_id: 2, attr: 1, paper_name: '护照原件', attention: '', sample: null },
          { material_id: 3, attr: 0, elec_name: '在职证明', attention: '加盖公章', sample: 'https://cdn.example.com/job.png' },
        ],
        material_optional: [
          { material_id: 4, attr: 0, elec_name: '银行流水', attention: '近6个月', sample: 'javascript:alert(1)' },
          { material_id: 5, attr: 2, take_along_name: '机票预订单', attention: '', sample: null },
        ],
      },
      {
        identity_id: 3,
        material_required: [{ material_id: 9, attr: 0, elec_name: '在读证明', attention: '', sample: null }],
        material_optional: [],
      },
    ],
    need_interview: false,
    stay_days: 90,
    tags: [],
    updated_at: 0,
    ...overrides,
  };
}

describe('renderMaterialListEmail', () => {
  it('names the product and the identity in the subject', () => {
    expect(renderMaterialListEmail(product(), 0, SITE).subject).toBe('【易签通】日本 旅游签证 单次入境 材料清单（在职人员）');
    expect(renderMaterialListEmail(product({ product_special_desc: '加急' }), 3, SITE).subject).toBe(
      '【易签通】日本 旅游签证 单次入境 加急 材料清单（在校学生）',
    );
    // A line break in catalogue text never splits the header.
    expect(renderMaterialListEmail(product({ product_special_desc: '加急\r\nBcc: x@y.z' }), 0, SITE).subject).not.toMatch(/[\r\n]/);
  });

  it('groups the text body by attr, marks required items and keeps the notes', () => {
    const { text } = renderMaterialListEmail(product(), 0, SITE);
    const electronic = text.indexOf('【电子资料】');
    const mailed = text.indexOf('【邮寄资料】');
    const embassy = text.indexOf('【赴馆资料】');
    expect(electronic).toBeGreaterThan(0);
    expect(mailed).toBeGreaterThan(electronic);
    expect(embassy).toBeGreaterThan(mailed);
    const electronicPart = text.slice(electronic, mailed);
    expect(electronicPart).toContain('1. * 护照首页扫描件');
    expect(electronicPart).toContain('   有效期6个月以上\n   至少2页空白页');
    expect(electronicPart).toContain('   样例：https://www.yiqiantong.example/static/samples/passport.jpg');
    expect(electronicPart).toContain('2. * 在职证明');
    expect(electronicPart).toContain('样例：https://cdn.example.com/job.png');
    expect(electronicPart).toContain('3. 银行流水');
    expect(electronicPart).not.toContain('* 银行流水');
    expect(electronicPart).not.toContain('javascript:');
    expect(text.slice(mailed, embassy)).toContain('1. * 护照原件');
    expect(text.slice(embassy)).toContain('1. 机票预订单');
    expect(text).toContain('https://www.yiqiantong.example/visa/product/42');
    expect(text).not.toContain('在读证明');
  });

  it('adds the photo requirement only when visa_photo_id is non-zero', () => {
    const { text, html } = renderMaterialListEmail(product(), 0, SITE);
    expect(text).toContain('* 签证照片');
    expect(text).toContain('背景颜色：白色；尺寸：45×45mm');
    expect(text).toContain(PHOTO_GUIDANCE);
    expect(text).toContain(PHOTO_AUTO_CHECK_NOTE);
    expect(html).toContain('背景颜色：白色；尺寸：45×45mm');
    const blue = renderMaterialListEmail(product({ photo_param: { color: 0, width: 33, height: 48 } }), 0, SITE);
    expect(blue.text).toContain('背景颜色：蓝色；尺寸：33×48mm');
    const none = renderMaterialListEmail(product({ visa_photo_id: 0, photo_param: null }), 0, SITE);
    expect(none.text).not.toContain('签证照片');
    expect(none.html).not.toContain('签证照片');
    expect(none.text).not.toContain(PHOTO_GUIDANCE);
  });

  it('omits empty groups and says so when an identity has nothing to prepare', () => {
    const student = renderMaterialListEmail(product({ visa_photo_id: 0 }), 3, SITE);
    expect(student.text).toContain('【电子资料】\n1. * 在读证明');
    expect(student.text).not.toContain('【邮寄资料】');
    expect(student.text).not.toContain('【赴馆资料】');
    const retired = renderMaterialListEmail(product({ visa_photo_id: 0 }), 2, SITE);
    expect(retired.subject).toContain('（退休人员）');
    expect(retired.text).toContain('该身份暂无需要准备的资料。');
    expect(() => renderMaterialListEmail(product(), 7, SITE)).toThrow(RangeError);
  });

  it('renders grouped HTML with required marks, notes and links', () => {
    const { html } = renderMaterialListEmail(product(), 0, SITE);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    for (const label of ['电子资料', '邮寄资料', '赴馆资料']) expect(html).toContain(`>${label}</h3>`);
    expect(html).toContain('<span style="color:#ff4b4d">*</span> <strong>护照首页扫描件</strong>');
    expect(html).toContain('有效期6个月以上<br>至少2页空白页');
    expect(html).toContain('<li style="margin:6px 0"><strong>银行流水</strong>');
    expect(html).toContain('<a href="https://www.yiqiantong.example/static/samples/passport.jpg">查看样例</a>');
    expect(html).toContain('href="https://www.yiqiantong.example/visa/product/42"');
    expect(html).not.toContain('javascript:');
  });

  it('escapes every catalogue string in the HTML', () => {
    const evil = '<img src=x onerror="alert(1)">&\'';
    const detail = product({
      country: `日本${evil}`,
      visa_type: `旅游${evil}`,
      product_special_desc: evil,
      identity_material: [
        {
          identity_id: 0,
          material_required: [
            { material_id: 1, attr: 0, elec_name: `护照${evil}`, attention: `注意${evil}`, sample: `https://cdn.example.com/a.jpg?x="><script>` },
          ],
          material_optional: [{ material_id: 2, attr: 2, take_along_name: `<script>alert(1)</script>`, attention: '', sample: null }],
        },
      ],
    });
    const { html, text } = renderMaterialListEmail(detail, 0, SITE);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror="');
    expect(html).toContain(`护照${escapeHtml(evil)}`);
    expect(html).toContain(`注意${escapeHtml(evil)}`);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(escapeHtml(`日本${evil}`));
    // The text body stays literal.
    expect(text).toContain(`护照${evil}`);
  });

  it('escapeHtml covers the five special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
