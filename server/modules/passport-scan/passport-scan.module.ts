// Wires the passport reader into the app: one multipart call inside the
// signed /www scope (customers only). The OCR worker starts on the first scan
// and stops with the app.
import { passportRead } from '../../../common/contracts/passport-scan.ts';
import { payloadOf, uploadRoute } from '../stored-file/multipart.ts';
import { createPassportScanService, PASSPORT_SCAN_MAX_BYTES, type PassportScanOptions } from './passport-scan.service.ts';

const TAG = '护照识别';

export function createPassportScanModule(options: PassportScanOptions) {
  const service = createPassportScanService(options);
  const uploadRoutes = uploadRoute({
    contract: passportRead,
    auth: 'customer',
    maxBytes: PASSPORT_SCAN_MAX_BYTES,
    // None is expected; one is read so that a stray field meets the text rule like any other upload's.
    fields: 1,
    schema: {
      summary: '识别护照资料页（multipart/form-data）：读取机读区，返回姓名拼音、护照号码、国籍、出生日期、性别和有效期',
      description:
        '只有一个字段 file：护照资料页的照片或扫描图片，按内容（开头字节）判断须为 JPEG 或 PNG，不超过 10 MB，宽高不超过 8000 像素。' +
        '在本机识别（OCR-B 机读区），图片只在识别时存在于内存中，不保存。机读区各校验位（护照号码、出生日期、有效期、综合）须全部相符，否则返回 2438，不返回任何字段。' +
        '中国护照的机读区只有拼音，姓名汉字须由客户填写。返回的字段须由客户逐项确认后才填入订单。\n\n需要登录：是（X-Token）',
      tags: [TAG],
      body: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
    },
    parse: payloadOf(passportRead, '只需上传一个文件（file）'),
    handle: (_customer, _input, file) => service.read(file),
  });
  return { service, uploadRoutes };
}

export type PassportScanModule = ReturnType<typeof createPassportScanModule>;
