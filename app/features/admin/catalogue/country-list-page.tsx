// 产品管理 · 国家与领区 (issue 26): the countries by continent with their flag,
// ISO code, how many consular districts and products each has; 新建国家.
import { PlusOutlined } from '@ant-design/icons';
import { Button, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminCountryList } from '../../../../common/contracts/catalogue-places';
import './catalogue.css';

export function CountryListPage({ list }: { list: AdminCountryList }) {
  const [continent, setContinent] = useState<number | null>(null);
  const continentName = new Map(list.continents.map((c) => [c.continent_id, c.name]));
  const rows = continent === null ? list.list : list.list.filter((row) => row.continent_id === continent);
  return (
    <div className="cat-list-page" data-testid="catalogue-countries">
      <div className="cat-editor-head">
        <div>
          <Link to="/admin/catalogue">← 产品列表</Link>
          <h1 className="cat-title">国家与领区</h1>
        </div>
        <div className="cat-head-actions">
          <Select
            aria-label="按大洲筛选"
            style={{ width: 160 }}
            value={continent ?? -1}
            onChange={(value) => setContinent(value === -1 ? null : value)}
            options={[{ value: -1, label: '全部大洲' }, ...list.continents.map((c) => ({ value: c.continent_id, label: c.name }))]}
          />
          <Link to="/admin/catalogue/countries/edit">
            <Button type="primary" icon={<PlusOutlined />}>
              新建国家
            </Button>
          </Link>
        </div>
      </div>
      <Table
        rowKey="visa_country_id"
        size="middle"
        dataSource={rows}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        columns={[
          { title: '国旗', dataIndex: 'flag', width: 70, render: (flag: string) => <img className="cat-flag" src={flag} alt="" /> },
          {
            title: '国家',
            dataIndex: 'name',
            render: (name: string, row) => <Link to={`/admin/catalogue/countries/edit?country=${row.visa_country_id}`}>{name}</Link>,
          },
          { title: '代码', dataIndex: 'iso_code', width: 80 },
          { title: '大洲', dataIndex: 'continent_id', width: 100, render: (id: number) => continentName.get(id) ?? '' },
          { title: '领区', dataIndex: 'district_count', width: 80 },
          { title: '产品', dataIndex: 'product_count', width: 80 },
          { title: '状态', dataIndex: 'status', width: 90, render: (status: number) => (status === 1 ? <Tag>停用</Tag> : <Tag color="green">启用</Tag>) },
        ]}
      />
    </div>
  );
}
