// Every `ret` value the API can answer with. The API reference lists this table;
// the client only relies on `ret === 0` and on HTTP 401, as spec §8 says.

export const ErrorCode = {
  OK: 0,
  INVALID_PARAMS: 1001,
  MALFORMED_BODY: 1002,
  BODY_TOO_LARGE: 1003,
  UNSUPPORTED_MEDIA_TYPE: 1004,
  SIGNATURE_MISSING: 1101,
  SIGNATURE_INVALID: 1102,
  UNKNOWN_PLATFORM: 1103,
  REQUEST_DATE_INVALID: 1104,
  REQUEST_REPLAYED: 1105,
  REQUEST_ID_INVALID: 1106,
  VERSION_UNSUPPORTED: 1107,
  NOT_LOGGED_IN: 1201,
  LOGIN_FAILED: 1301,
  LOGIN_THROTTLED: 1302,
  ACCOUNT_DISABLED: 1303,
  VISA_COUNTRY_NOT_FOUND: 1701,
  VISA_PRODUCT_NOT_FOUND: 1702,
  EMAIL_INVALID: 1703,
  EMAIL_NOT_SENT: 1704,
  ORDER_NOT_FOUND: 1801,
  ORDER_PRODUCT_DELISTED: 1802,
  ORDER_PRODUCT_NOT_OFFLINE: 1803,
  ORDER_DEPARTURE_DATE_INVALID: 1804,
  ORDER_DEPARTURE_DATE_PAST: 1805,
  ORDER_DEPARTURE_DATE_TOO_FAR: 1806,
  ORDER_DATE_INVALID: 1807,
  ORDER_DISTRICT_INVALID: 1808,
  ORDER_APPLICANTS_REQUIRED: 1809,
  ORDER_TOO_MANY_APPLICANTS: 1810,
  ORDER_APPLICANT_NAME_INVALID: 1811,
  ORDER_APPLICANT_MOBILE_INVALID: 1812,
  ORDER_APPLICANT_EMAIL_INVALID: 1813,
  ORDER_APPLICANT_DUPLICATE: 1814,
  ORDER_ALREADY_CANCELLED: 1815,
  ORDER_NOT_CANCELLABLE: 1816,
  ORDER_CONFLICT: 1817,
  // 1821–1839 uploaded materials (modules/material)
  // 1841–1859 interview slots (modules/interview)
  // 1861–1869 addresses (modules/address)
  // 1871–1879 insurance and confirm (modules/insurance, order confirm)
  // 1881–1899 payment (modules/payment)
  NOT_FOUND: 1404,
  TOO_MANY_REQUESTS: 1429,
  INTERNAL: 1500,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Default Chinese message and meaning of each code, for the API reference and the server. */
export const ERROR_CATALOGUE: Record<ErrorCodeValue, { msg: string; meaning: string; http: number }> = {
  0: { msg: 'ok', meaning: '成功', http: 200 },
  1001: { msg: '参数错误', meaning: '请求参数缺失、类型错误或取值不合法', http: 200 },
  1002: { msg: '请求数据格式错误', meaning: '请求体不是合法的 JSON 对象', http: 200 },
  1003: { msg: '请求数据过大', meaning: '请求体超过服务器允许的大小', http: 200 },
  1004: { msg: '请求数据格式错误，请使用 JSON', meaning: 'Content-Type 不是 application/json', http: 200 },
  1101: { msg: '请求签名缺失', meaning: '缺少 Authorization 或签名相关请求头', http: 200 },
  1102: { msg: '请求签名错误', meaning: 'Authorization 与 HMAC-SHA256 签名不一致', http: 200 },
  1103: { msg: '未知的客户端平台', meaning: 'platform 请求头不是已配置的平台', http: 200 },
  1104: { msg: '请求时间无效，请校准设备时间', meaning: 'X-Date 缺失、无法解析或与服务器时间相差超过 15 分钟', http: 200 },
  1105: { msg: '重复的请求', meaning: 'X-Request-Id 在有效时间窗口内已使用过（重放）', http: 200 },
  1106: { msg: '请求编号格式错误', meaning: 'X-Request-Id 不是 32 位小写字母和数字', http: 200 },
  1107: { msg: '不支持的接口版本', meaning: 'X-Version 不是 1.0.0', http: 200 },
  1201: { msg: '登录已过期，请重新登录', meaning: '缺少 X-Token，或会话已过期、已退出', http: 401 },
  1301: { msg: '账号或密码错误', meaning: '账号不存在或密码摘要不匹配', http: 200 },
  1302: { msg: '登录失败次数过多，请稍后再试', meaning: '同一账号或同一地址失败次数过多，暂时拒绝登录', http: 200 },
  1303: { msg: '账号已停用，请联系客服', meaning: '账号或所属企业已停用', http: 200 },
  1404: { msg: '接口不存在', meaning: '没有这个接口路径', http: 404 },
  1701: { msg: '该国家暂无签证产品', meaning: 'visa_country_id 不存在或已停用', http: 200 },
  1702: { msg: '该签证产品不存在', meaning: 'visa_product_id 不存在', http: 200 },
  1703: { msg: '请输入正确的邮箱', meaning: 'email 不符合邮箱格式', http: 200 },
  1704: { msg: '邮件发送失败，请稍后再试', meaning: '邮件服务器暂时不可用', http: 200 },
  1801: { msg: '订单不存在', meaning: 'user_order_id 不存在，或不属于当前账号所在企业', http: 200 },
  1802: { msg: '该商品已下架', meaning: '签证产品已下架（status 为 1 或 channel 为 99），不能下单', http: 200 },
  1803: { msg: '该商品不支持线下办理', meaning: '签证产品 offline 为 false，只能在小程序或 App 办理', http: 200 },
  1804: { msg: '请选择正确的出发日期', meaning: 'departure_date 不是 YYYY-MM-DD 格式的真实日期', http: 200 },
  1805: { msg: '出发日期不能早于今天', meaning: 'departure_date 早于今天（北京时间）', http: 200 },
  1806: { msg: '出发日期不能晚于一年后', meaning: 'departure_date 距今超过 366 天', http: 200 },
  1807: { msg: '请选择正确的办理日期', meaning: 'order_date 不是真实日期，或早于今天（北京时间），或晚于出发日期', http: 200 },
  1808: { msg: '所选领区不受理该签证产品', meaning: 'consular_district_id 不属于产品所在国家，或与产品指定的领区不一致', http: 200 },
  1809: { msg: '请至少添加一位申请人', meaning: 'applicants 为空', http: 200 },
  1810: { msg: '每个订单最多 20 位申请人', meaning: 'applicants 超过 20 人', http: 200 },
  1811: { msg: '请输入申请人姓名（1–30 个字）', meaning: '申请人姓名去除首尾空白后为空或超过 30 个字', http: 200 },
  1812: { msg: '请输入正确的手机号', meaning: '申请人手机号不是 11 位中国大陆手机号', http: 200 },
  1813: { msg: '请输入正确的邮箱', meaning: '申请人邮箱不符合邮箱格式', http: 200 },
  1814: { msg: '申请人重复', meaning: '同一订单中有姓名和手机号都相同的申请人', http: 200 },
  1815: { msg: '订单已取消', meaning: '订单已取消（用户取消或超时未支付），不能再操作', http: 200 },
  1816: { msg: '订单已支付，无法取消', meaning: '只有草稿和待支付的订单可以取消；已支付的订单请联系客服退款', http: 200 },
  1817: { msg: '订单状态已变化，请刷新后重试', meaning: '订单在此期间被其他操作修改（乐观并发冲突）', http: 200 },
  // 1821–1839 uploaded materials
  // 1841–1859 interview slots
  // 1861–1869 addresses
  // 1871–1879 insurance and confirm
  // 1881–1899 payment
  1429: { msg: '操作过于频繁，请稍后再试', meaning: '请求频率超限', http: 200 },
  1500: { msg: '系统繁忙，请稍后再试', meaning: '服务器内部错误，详情只记录在日志中', http: 500 },
};
