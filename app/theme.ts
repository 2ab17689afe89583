// antd theme from spec §9. The spec's colours stay the brand (seed tokens:
// fills, borders, icons, large text). Each of them is too light for small text
// on white (3.3:1 at best; WCAG AA asks 4.5:1), so small text uses a darker
// shade of the same hue through antd's *Text / link tokens, and a fill that
// carries small white text (a primary button) uses that shade too. The table
// of which token does what: docs/decisions/0015-contrast-tokens.md. app.css
// repeats the shades as CSS variables for the app's own stylesheets.
import type { ThemeConfig } from 'antd';
import { THEME_COLORS } from '../common/constants';

/** Darker shades of the brand colours: ≥ 4.6:1 on white and on the page grey #f5f6f8. */
export const TEXT_COLORS = {
  primary: '#d13039',
  primaryHover: '#c62b35',
  info: '#2471be',
  infoHover: '#1f68b2',
  success: '#047e6c',
  warning: '#b94f1c',
  /** Secondary text (antd's 45 % black is 3.4:1). */
  secondary: 'rgba(0, 0, 0, 0.62)',
  /** Placeholders (antd's 25 % black is 1.8:1). */
  placeholder: 'rgba(0, 0, 0, 0.56)',
} as const;

const FOCUS_HOVER = '#4a90d9';
const FOCUS_SHADOW_COLOR = 'rgba(36, 113, 190, 0.2)';
const FOCUS_RING = { activeBorderColor: TEXT_COLORS.info, hoverBorderColor: FOCUS_HOVER, activeShadow: `0 0 0 2px ${FOCUS_SHADOW_COLOR}` };

export const theme: ThemeConfig = {
  // A fixed name for antd's CSS-variable scope: the static stylesheets made
  // before the build (scripts/antd-styles.tsx) and the pages must agree on it.
  cssVar: { key: 'visa-theme' },
  token: {
    colorPrimary: THEME_COLORS.primary,
    colorInfo: THEME_COLORS.info,
    colorError: THEME_COLORS.error,
    colorSuccess: THEME_COLORS.success,
    colorWarning: THEME_COLORS.warning,
    colorPrimaryText: TEXT_COLORS.primary,
    colorPrimaryTextHover: TEXT_COLORS.primaryHover,
    colorPrimaryTextActive: TEXT_COLORS.primaryHover,
    colorErrorText: TEXT_COLORS.primary,
    colorErrorTextHover: TEXT_COLORS.primaryHover,
    colorErrorTextActive: TEXT_COLORS.primaryHover,
    colorInfoText: TEXT_COLORS.info,
    colorSuccessText: TEXT_COLORS.success,
    colorWarningText: TEXT_COLORS.warning,
    colorLink: TEXT_COLORS.info,
    colorLinkHover: TEXT_COLORS.infoHover,
    colorLinkActive: TEXT_COLORS.infoHover,
    colorTextTertiary: TEXT_COLORS.secondary,
    colorTextDescription: TEXT_COLORS.secondary,
    // A select's placeholder is the only hint of what to choose: readable, not faint.
    colorTextPlaceholder: TEXT_COLORS.placeholder,
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    // White 14 px labels on the fill: the fill takes the text shade.
    Button: {
      colorPrimary: TEXT_COLORS.primary,
      colorPrimaryHover: TEXT_COLORS.primaryHover,
      colorPrimaryActive: TEXT_COLORS.primaryHover,
      colorError: TEXT_COLORS.primary,
      colorErrorHover: TEXT_COLORS.primaryHover,
      colorErrorActive: TEXT_COLORS.primaryHover,
      colorLink: TEXT_COLORS.info,
    },
    // A status tag (processing, success, …) writes its label in the status colour.
    Tag: { colorInfo: TEXT_COLORS.info, colorSuccess: TEXT_COLORS.success, colorWarning: TEXT_COLORS.warning, colorError: TEXT_COLORS.primary },
    // The selected tab's label is small text; the ink bar stays the brand.
    Tabs: {
      itemSelectedColor: TEXT_COLORS.primary,
      itemHoverColor: TEXT_COLORS.primaryHover,
      itemActiveColor: TEXT_COLORS.primaryHover,
      inkBarColor: THEME_COLORS.primary,
    },
    // The selected item of a menu (the back office's side menu) is small text on a light brand tint.
    Menu: { itemSelectedColor: TEXT_COLORS.primary },
    // A focused field is ringed in the info blue: the brand red is also the error colour,
    // so a red ring made every focused field look wrong (issue 27).
    Input: FOCUS_RING,
    InputNumber: FOCUS_RING,
    DatePicker: FOCUS_RING,
    Select: { activeBorderColor: TEXT_COLORS.info, hoverBorderColor: FOCUS_HOVER, activeOutlineColor: FOCUS_SHADOW_COLOR },
  },
};
