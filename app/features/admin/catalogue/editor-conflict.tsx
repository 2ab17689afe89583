// The banner an editor shows when its save was refused because someone else
// saved the same record first (a product's draft: 2324; a country: 2620): what
// was typed stays on the page, the save button stays disabled, and 刷新 loads
// the other person's version.
import { Alert, Button } from 'antd';

export function EditorConflict({ what }: { what: string }) {
  return (
    <Alert
      type="error"
      showIcon
      className="cat-conflict"
      title={`${what}已被他人修改`}
      description="本页的修改没有保存，也没有丢失：请先复制需要保留的内容，再刷新页面查看他人的修改。"
      action={
        <Button size="small" onClick={() => window.location.reload()}>
          刷新
        </Button>
      }
      data-testid="editor-conflict"
    />
  );
}
