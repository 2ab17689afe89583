// One ordered list of the editor (basic info, process steps, a checklist…):
// its rows, reordered by dragging a row's handle onto another row (the
// browser's own drag and drop: no library for one list) or with the 上移 /
// 下移 buttons — plain buttons, so reordering works from the keyboard too —
// each with 删除, and an add button.
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import { type ReactNode, useState } from 'react';

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
  // The row being dragged and the row it would land on (drawn with a line).
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const endDrag = () => {
    setDragging(null);
    setOver(null);
  };
  return (
    <Form.List name={name}>
      {(fields, { add, remove, move }) => (
        <div className="cat-list">
          {fields.map((field, index) => (
            <div
              className={`cat-list-row${over === index && dragging !== null && dragging !== index ? (dragging < index ? ' cat-list-drop-after' : ' cat-list-drop-before') : ''}`}
              key={field.key}
              data-testid={`row-${name.join('-')}-${index}`}
              onDragOver={(event) => {
                if (dragging === null) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = 'move';
                if (over !== index) setOver(index);
              }}
              onDrop={(event) => {
                event.preventDefault();
                if (dragging !== null && dragging !== index) move(dragging, index);
                endDrag();
              }}
            >
              <span
                className="cat-list-handle"
                draggable
                title={`拖动排序（第 ${index + 1} 条${label}）`}
                data-testid="list-drag-handle"
                onDragStart={(event) => {
                  event.dataTransfer.effectAllowed = 'move';
                  event.dataTransfer.setData('text/plain', String(index));
                  // The whole row as the drag image, not just the handle.
                  const row = event.currentTarget.parentElement;
                  if (row) event.dataTransfer.setDragImage(row, 12, 16);
                  setDragging(index);
                }}
                onDragEnd={endDrag}
              >
                <HolderOutlined aria-hidden />
              </span>
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
