// antd's Badge for the header bell, in a chunk of its own (notice-bell.tsx loads it lazily).
import { Badge } from 'antd';
import type { ReactNode } from 'react';
import { TEXT_COLORS } from '../theme';
import { AntdScope } from './antd-scope';

export default function NoticeBadge({ count, children }: { count: number; children: ReactNode }) {
  return (
    <AntdScope>
      {/* The brand red that white small text reads on (4.6:1), not the lighter error red. */}
      <Badge count={count} overflowCount={99} size="small" color={TEXT_COLORS.primary}>
        {children}
      </Badge>
    </AntdScope>
  );
}
