// The one error type of the API. Thrown anywhere, mapped to the envelope in
// one place (platform/error-handler.ts).
import { ERROR_CATALOGUE, type ErrorCodeValue } from '../../common/error-codes.ts';

export class AppError extends Error {
  readonly ret: ErrorCodeValue;
  readonly httpStatus: number;

  constructor(ret: ErrorCodeValue, msg?: string) {
    super(msg ?? ERROR_CATALOGUE[ret].msg);
    this.ret = ret;
    this.httpStatus = ERROR_CATALOGUE[ret].http;
  }
}
