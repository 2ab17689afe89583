// antd theme from spec §9.
import type { ThemeConfig } from 'antd';
import { THEME_COLORS } from '../common/constants';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: THEME_COLORS.primary,
    colorInfo: THEME_COLORS.info,
    colorError: THEME_COLORS.error,
    colorSuccess: THEME_COLORS.success,
    colorWarning: THEME_COLORS.warning,
    colorLink: THEME_COLORS.info,
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'Helvetica Neue', Arial, sans-serif",
  },
};
