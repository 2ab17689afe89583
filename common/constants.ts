// Business constants of spec §9, shared by the web client and the server.

export const API_VERSION = '1.0.0';
export const WEB_PLATFORM = '4';
export const REQUEST_TIMEOUT_MS = 60_000;
export const REQUEST_ID_LENGTH = 32;
export const REQUEST_ID_PATTERN = /^[a-z0-9]{32}$/;

export const SESSION_EXPIRED_TOAST_MS = 2_000;
export const EMAIL_SUCCESS_DISPLAY_MS = 1_000;

export const REVIEW_PAGE_SIZE = 10;
export const PAGINATION_WINDOW = 5;
export const QRCODE_SIZE = 300;
export const REMINDER_COLLAPSED_HEIGHT_PX = 72;
export const LOGIN_DIALOG_WIDTH_PX = 600;
export const WHEEL_SCROLL_STEP_PX = 200;
export const IMAGE_VIEWER_Z_INDEX = 9999;

export const SELECT_ALL_LABEL = '全部';
export const LOADING_DEFAULT_TEXT = '加载中';
export const ADDRESS_ROOT_REGION = '86';

export const THEME_COLORS = {
  info: '#3fa2f5',
  primary: '#ff4b4d',
  error: '#ff4b4d',
  success: '#14bc99',
  warning: '#fb8339',
} as const;

export const CONTINENTS = { 0: '亚洲', 1: '欧洲', 2: '美洲', 3: '大洋洲', 4: '非洲' } as const;
export const IDENTITIES = { 0: '在职人员', 1: '自由职业者', 2: '退休人员', 3: '在校学生', 4: '学龄前儿童' } as const;
export const MATERIAL_ATTRS = { 0: '电子资料', 1: '邮寄资料', 2: '赴馆资料' } as const;
export const PHOTO_COLORS = { 0: '蓝色', 1: '白色', 2: '红色', 3: '灰色' } as const;

/** localStorage / cookie keys of spec §3 and §7. */
export const STORAGE_KEYS = {
  loginData: 'login_data',
  tokenCookie: 'token',
  /** The back office's session (an operator's token; never a customer's). */
  adminTokenCookie: 'admin_token',
  addressLibraryJson: 'addressLibraryJson',
  addressLibraryFileUrl: 'addressLibraryFileUrl',
} as const;

/** The environment value that turns analytics on (spec §1). */
export const ANALYTICS_ENV = 'prod';

/** Path prefixes that require a logged-in user (spec §6). */
export const LOGIN_ONLY_PREFIXES = ['/order/', '/ordering/'] as const;

export function isLoginOnlyPath(pathname: string): boolean {
  return LOGIN_ONLY_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}
