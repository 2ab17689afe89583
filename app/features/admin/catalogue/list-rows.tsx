// One ordered list of the editor (basic info, process steps, a checklist…):
// its rows with 上移 / 下移 / 删除 buttons — plain buttons, so reordering
// works from the keyboard too — and an add button.
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import type { ReactNode } from 'react';

export function ListRows({
  name,
  label,
  newRow,
  max,
  children,
}: {
  name: (string | number)[];
  /** What one row is, for the buttons' names: 基本信息, 资料 … */
  label: string;
  newRow: () => unknown;
  max: number;
  children: (field: { name: number; key: number }, index: number) => ReactNode;
}) {
  return (
    <Form.List name={name}>
      {(fields, { add, remove, move }) => (
        <div className="cat-list">
          {fields.map((field, index) => (
            <div className="cat-list-row" key={field.key} data-testid={`row-${name.join('-')}-${index}`}>
              <span className="cat-list-index">{index + 1}</span>
              <div className="cat-list-fields">{children(field, index)}</div>
              <Space.Compact className="cat-list-actions">
                <Button
                  icon={<ArrowUpOutlined />}
                  aria-label={`上移第 ${index + 1} 条${label}`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                />
                <Button
                  icon={<ArrowDownOutlined />}
                  aria-label={`下移第 ${index + 1} 条${label}`}
                  disabled={index === fields.length - 1}
                  onClick={() => move(index, index + 1)}
                />
                <Button icon={<DeleteOutlined />} aria-label={`删除第 ${index + 1} 条${label}`} danger onClick={() => remove(index)} />
              </Space.Compact>
            </div>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add(newRow())} disabled={fields.length >= max}>
            添加{label}
          </Button>
        </div>
      )}
    </Form.List>
  );
}
