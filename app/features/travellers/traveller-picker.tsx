// The create-order page's picker (常用出行人): choosing saved travellers fills
// the applicant items (name, identity, mobile, e-mail, passport) instead of typing them;
// taking one out removes the applicant it filled. The upload step then offers
// each applicant's saved documents (same name and mobile).
import { TeamOutlined } from '@ant-design/icons';
import { type FormInstance, Select } from 'antd';
import { Link } from 'react-router';
import type { TravellerView } from '../../../common/contracts/traveller';
import { ORDER_LIMITS } from '../../../common/contracts/rules';
import { applicantFromTraveller } from './save-from-order';
import './travellers.css';

interface ApplicantShape {
  name?: string;
  identity_id?: number;
  mobile_phone?: string;
  email?: string;
}

const isBlank = (a: ApplicantShape | undefined) => !a || (!a.name && a.identity_id === undefined && !a.mobile_phone && !a.email);
const sameAs = (a: ApplicantShape | undefined, t: TravellerView) => a?.name === t.name && a?.mobile_phone === t.mobile_phone;

export function TravellerPicker({ form, travellers }: { form: FormInstance; travellers: TravellerView[] }) {
  if (travellers.length === 0) {
    return (
      <p className="tv-muted tv-picker" data-testid="traveller-picker-empty">
        <TeamOutlined /> 常出行的人可保存为<Link to="/user/travellers">常用出行人</Link>，下次直接选择，证件也可直接使用。
      </p>
    );
  }
  const applicants = (): ApplicantShape[] => form.getFieldValue('applicants') ?? [];
  const picked = travellers.filter((t) => applicants().some((a) => sameAs(a, t))).map((t) => t.traveller_id);

  const add = (id: number) => {
    const t = travellers.find((x) => x.traveller_id === id);
    if (!t) return;
    // The order's fields and the passport, and (for saving changes back) which traveller it is.
    const filled = applicantFromTraveller(t);
    const current = applicants().filter((a) => !isBlank(a));
    if (current.length >= ORDER_LIMITS.maxApplicants) return;
    form.setFieldValue('applicants', [...current, filled]);
  };
  const drop = (id: number) => {
    const t = travellers.find((x) => x.traveller_id === id);
    if (!t) return;
    const left = applicants().filter((a) => !sameAs(a, t));
    form.setFieldValue('applicants', left.length > 0 ? left : [{}]);
  };

  return (
    <div className="tv-picker" data-testid="traveller-picker">
      <span>
        <TeamOutlined /> 从常用出行人选择
      </span>
      <Select
        mode="multiple"
        className="tv-picker-select"
        placeholder="选择出行人，自动填写申请人信息"
        value={picked}
        options={travellers.map((t) => ({ value: t.traveller_id, label: `${t.name}（${t.identity_label} · ${t.mobile_phone.slice(-4)}）` }))}
        onSelect={(id: number) => add(id)}
        onDeselect={(id: number) => drop(id)}
        optionFilterProp="label"
        data-testid="traveller-picker-select"
      />
    </div>
  );
}
